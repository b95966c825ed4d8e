/**
 * Headline numbers that cannot be misread (issue 30): break-even says its direction, both modes
 * and the tokenizer; the Recall@5 tile is the default retriever's by id (not by position) and a
 * second tile shows the run's best retriever with its CI and paired difference; the two full
 * menus say what each counts; a LAP divergence is a warning, not an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headlinesSection, breakEvenSentence } from '../../pipeline/report/sections/headlines.ts';
import { caveatsSection } from '../../pipeline/report/sections/caveats.ts';
import { DEFAULT_RETRIEVER_ID } from '../../pipeline/retrieval/registry.ts';
import { summaryLines } from '../../pipeline/report/summary.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { isScored } from '../../pipeline/report/types.ts';
import { buildSampleReport } from './sample.ts';

const text = (v: unknown) => String(v).replace(/<[^>]+>/g, '');
const tiles = (r = buildSampleReport()) =>
  headlinesSection.build(r).tiles!.map((t) => ({ label: text(t.label), value: text(t.value), sub: text(t.sub) }));

test('break-even: direction, both modes and the tokenizer, on the tile and in the console summary', () => {
  const r = buildSampleReport();
  const be = tiles(r).find((t) => /cheaper than the full menu up to/.test(t.label));
  assert.ok(be, 'a break-even tile');
  assert.match(be.label, /full \/ compact/);
  assert.equal(be.value, '3.7 / 11.4');
  assert.match(be.sub, /past that the full menu wins/);
  assert.match(be.sub, /cl100k_base/);
  const line = summaryLines(r, REPORT_SECTIONS).find((l) => l.startsWith('break-even:'));
  assert.equal(
    line,
    'break-even: the proxy is cheaper than the full menu for sessions with up to 3.7 (full), 11.4 (compact) discovery calls; past that the full menu wins; cl100k_base',
  );
  assert.equal(breakEvenSentence([], 'cl100k_base'), undefined);
});

test('Recall@5: the default retriever by id, wherever its row is; the best retriever with CI and paired difference', () => {
  const r = buildSampleReport();
  // the default retriever's rows moved to the end: the tile must still pick them
  r.retrieval = [
    ...r.retrieval.filter((x) => x.retriever?.id !== DEFAULT_RETRIEVER_ID),
    ...r.retrieval.filter((x) => x.retriever?.id === DEFAULT_RETRIEVER_ID),
  ];
  const t = tiles(r);
  const def = t.find((x) => x.label === `Recall@5, default retriever ${DEFAULT_RETRIEVER_ID}`);
  const base = r.retrieval.filter(isScored).find((x) => x.retriever.id === DEFAULT_RETRIEVER_ID && x.arm === 'baseline_json')!;
  assert.ok(def);
  assert.equal(def.value, base.metrics.recall_at_5.value.toFixed(3));
  const best = t.find((x) => x.label.startsWith('Recall@5, best retriever '));
  assert.ok(best, 'a best-retriever tile');
  assert.match(best.label, /embed_static/);
  assert.match(best.sub, /95% CI \[0\.\d{3}, 0\.\d{3}\]/);
  assert.match(best.sub, /vs bm25f \+0\.\d{3} \[0\.\d{3}, 0\.\d{3}\] paired/);
  // a run where only the default retriever was scored has no second tile
  const only = buildSampleReport();
  only.retrieval = only.retrieval.filter((x) => x.retriever?.id === DEFAULT_RETRIEVER_ID);
  assert.equal(tiles(only).filter((x) => x.label.startsWith('Recall@5, best')).length, 0);
});

test('the two full menus say what each counts', () => {
  const t = tiles();
  const listing = t.find((x) => x.label.startsWith('full listing of the corpus'))!;
  const naive = t.find((x) => x.label.startsWith('naive full menu'))!;
  assert.match(listing.sub, /37 tools of corpus-npm4-v1, rendered offline/);
  assert.match(naive.sub, /43 tools: every upstream the proxy serves, listed live \(the corpus listing has 37\)/);
});

test('a LAP divergence is a warning banner that says what LAP is and links to it', () => {
  const r = buildSampleReport();
  assert.ok(r.live?.lap.warning, 'the sample report has a LAP divergence');
  const b = caveatsSection.build(r).blocks.find((x) => x.kind === 'banner' && x.id === 'lap-warning');
  assert.ok(b && b.kind === 'banner');
  assert.equal(b.tone, 'warn');
  assert.match(String(b.text), /third-party linter/);
  assert.match(String(b.text), /href="#live-lap"/);
  assert.ok(
    !caveatsSection.build(r).blocks.some((x) => x.kind === 'banner' && x.tone === 'bad' && /LAP/.test(x.title)),
    'no LAP error banner',
  );
});
