/**
 * The offline economics' two pure jobs on their declared inputs: simulated responses from
 * rankings(arm) (responses.ts) and the economics rows from counts(arm) + the responses' counts
 * (economics.ts). Real arm, real corpus, real tokenizer; the whole-stage figures are checked by
 * offline.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getArm } from '../../arms/registry.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { BASELINE_ARM_ID, DEFAULT_CORPUS, DEFAULT_DISCOVERY_MENU, SESSION_CALLS } from '../../pipeline/constants.ts';
import { DISCOVERY_MENU_AT, simulateResponses } from '../../pipeline/bench/responses.ts';
import { armEconomics } from '../../pipeline/bench/economics.ts';
import { breakEvenCurve } from '../../pipeline/economics/breakeven.ts';
import { sessionEstimates } from '../../pipeline/economics/session.ts';
import type { Arm } from '../../arms/types.ts';

test('simulateResponses: menu first, one text per distinct top-k ranking, ids outside the corpus left out', async () => {
  const corpus = await loadCorpus(DEFAULT_CORPUS);
  const menu = await loadCorpus(DEFAULT_DISCOVERY_MENU);
  const arm = getArm(BASELINE_ARM_ID);
  const [a, b, c] = corpus.tools;
  const tools = new Map(corpus.tools.map((t) => [t.tool_id, t]));
  const rankings = new Map<string, string[]>([
    ['q1', [a.tool_id, b.tool_id, c.tool_id]],
    ['q2', [a.tool_id, 'nowhere:tool', b.tool_id, 'x']], // same top 2 in the corpus as q1
    ['q3', ['nowhere:tool']],
  ]);
  const sim = simulateResponses(arm, { rankings, queries: ['q1', 'q2', 'q3', 'unranked'], tools, menu: menu.tools, topK: 2 });
  assert.ok(!('note' in sim));
  assert.equal(sim.texts[DISCOVERY_MENU_AT], arm.renderListing(menu.tools));
  // q1: top 2 = a, b; q2: top 2 = a, nowhere -> a alone; q3 and unranked: empty responses share one text
  assert.deepEqual(sim.perQuery, [1, 2, 3, 3]);
  assert.equal(sim.texts[1], arm.renderListing([a, b]));
  assert.equal(sim.texts[2], arm.renderListing([a]));
  assert.equal(sim.texts[3], '');
  assert.equal(sim.texts.length, 4);
});

test('simulateResponses: an arm that cannot render the discovery menu gives a note, no texts', async () => {
  const menu = await loadCorpus(DEFAULT_DISCOVERY_MENU);
  const base = getArm(BASELINE_ARM_ID);
  const broken: Arm = {
    ...base,
    meta: { ...base.meta, id: 'broken_arm' },
    renderListing: () => {
      throw new Error('no listing form');
    },
  };
  const sim = simulateResponses(broken, { rankings: new Map(), queries: ['q'], tools: new Map(), menu: menu.tools, topK: 5 });
  assert.deepEqual(sim, { note: 'economics: arm broken_arm cannot render the discovery menu (no listing form); no break-even row' });
});

test('armEconomics: the rows are the economics formulas applied to counts(arm) and the responses counts', () => {
  const tk = getTokenizer('cl100k_base');
  const responseTokens = [400, 120, 80, 0];
  const perQuery = [1, 2, 2, 3];
  const out = armEconomics({
    corpusId: 'c',
    arm: 'a',
    retryRate: 0.1,
    perQuery,
    byTokenizer: [
      { tokenizer: tk.name, fullMenuTokens: 5000, responseTokens },
      { tokenizer: 'o200k_base', fullMenuTokens: 300, responseTokens },
    ],
  });
  const meanResp = (120 + 80 + 80 + 0) / 4;
  const curve = breakEvenCurve({ fullMenuTokens: 5000, discoveryMenuTokens: 400, meanResponseTokens: meanResp });
  assert.equal(out.break_even.length, 2);
  assert.deepEqual(out.break_even[0], { corpus_id: 'c', arm: 'a', tokenizer: 'cl100k_base', ...curve.break_even });
  assert.equal(out.break_even[0].break_even_calls, (5000 - 400) / meanResp);
  // the discovery menu costs more than a 300-token full menu: no break-even
  assert.equal(out.break_even[1].no_break_even, true);
  const curve2 = breakEvenCurve({ fullMenuTokens: 300, discoveryMenuTokens: 400, meanResponseTokens: meanResp });
  assert.equal(out.curves.length, curve.points.length + curve2.points.length);
  const p = curve.points[3];
  assert.deepEqual(out.curves[3], {
    corpus_id: 'c',
    arm: 'a',
    tokenizer: 'cl100k_base',
    calls: p.calls,
    full_menu_tokens: p.full_menu_tokens,
    discovery_tokens: p.discovery_tokens,
  });
  assert.equal(out.curves[curve.points.length].tokenizer, 'o200k_base');
  const sessions = sessionEstimates({ menuTokens: 400, meanResponseTokens: meanResp, retryRate: 0.1, calls: SESSION_CALLS });
  assert.deepEqual(
    out.session_estimates.slice(0, sessions.length),
    sessions.map((s) => ({ corpus_id: 'c', arm: 'a', tokenizer: 'cl100k_base', ...s })),
  );
  assert.equal(out.session_estimates.length, 2 * sessions.length);
});
