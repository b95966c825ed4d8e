/** runArm / rankingAgreement on the committed sample corpus, with hand-checked figures. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getArm, resolveArms } from '../../arms/registry.ts';
import { runArm, rankingAgreement, heaviest, type ArmRunResult } from '../../pipeline/bench/arm-tokens.ts';
import { ArmEncodeError } from '../../arms/errors.ts';
import { getTokenizer, resolveTokenizers } from '../../pipeline/tokens/tokenizer.ts';
import type { Arm } from '../../arms/types.ts';
import type { JsonValue, ToolRecord } from '../../pipeline/types.ts';
import { UserError } from '../../pipeline/types.ts';
import { COLLIDING_SCHEMAS, sampleCorpus, sampleTools } from '../arms/sample.ts';

const TKS = resolveTokenizers('all');
const golden = (f: string) => readFileSync(fileURLToPath(new URL(`../../arms/golden/${f}`, import.meta.url)), 'utf8').replace(/\n$/, '');
const tool = (name: string, description: string, inputSchema?: JsonValue): ToolRecord =>
  inputSchema === undefined
    ? { tool_id: `s:${name}`, server: 's', tool: name, description }
    : { tool_id: `s:${name}`, server: 's', tool: name, description, inputSchema };

test('baseline_json on the sample: totals, distribution, heaviest, index docs', async () => {
  const r = await runArm(getArm('baseline_json'), sampleCorpus(), TKS);
  assert.equal(r.skipped, false);
  assert.equal(r.tool_count, 6);
  assert.equal(r.skipped_tools, 0);
  assert.deepEqual(
    r.tool_ids,
    sampleTools().map((t) => t.tool_id),
  );
  assert.deepEqual(
    r.tokens.map((t) => t.tokenizer),
    ['cl100k_base', 'o200k_base'],
  );
  const [cl, o2] = r.tokens;
  // the total is the count of the listing (the committed golden), not a sum of per-tool counts
  assert.equal(cl.total_tokens, getTokenizer('cl100k_base').count(golden('baseline_json.listing.txt')));
  assert.equal(cl.total_tokens, 645);
  assert.equal(o2.total_tokens, 661);
  assert.deepEqual(cl.per_tool, [211, 72, 109, 23, 188, 42]);
  assert.equal(cl.mean_tokens, 107.5); // 645 / 6
  assert.equal(cl.p50_tokens, 72); // nearest rank: sorted [23,42,72,109,188,211], rank ceil(3) = 3
  assert.equal(cl.p95_tokens, 211); // rank ceil(5.7) = 6
  assert.equal(cl.max_tokens, 211);
  assert.equal(cl.savings_vs_baseline_pct, 0);
  assert.deepEqual(
    cl.heaviest_tools.map((h) => h.tool_id),
    [
      'fetch:fetch',
      'search:query_docs',
      'filesystem:directory_tree',
      'filesystem:create_directory',
      'filesystem:list_directory',
      'notes:ping',
    ],
  );
  assert.equal(r.index_docs.length, 6);
  assert.deepEqual(r.index_docs[3], {
    tool_id: 'notes:ping',
    server: 'notes',
    name: 'ping',
    description: sampleTools()[3].description,
    params: '',
  });
});

/** the arms this test knows the figures of (a new arm in the registry changes nothing here) */
const NAMED_ARMS = ['baseline_json', 'compact_json', 'compact_sig', 'toon_listing', 'tron_dedup', 'tscg'];

test('savings vs baseline, arm-level skip and ranking agreement over the named arms', async () => {
  const corpus = sampleCorpus();
  const base = await runArm(getArm('baseline_json'), corpus, TKS);
  const rows: ArmRunResult[] = [base];
  for (const a of resolveArms(NAMED_ARMS).slice(1)) rows.push(await runArm(a, corpus, TKS, base));
  const byId = Object.fromEntries(rows.map((r) => [r.arm, r]));
  const sig = byId.compact_sig.tokens[0];
  assert.equal(sig.total_tokens, 321);
  assert.equal(sig.savings_vs_baseline_pct, (1 - 321 / 645) * 100);
  assert.ok(Math.abs(sig.savings_vs_baseline_pct! - 50.2326) < 1e-3);
  assert.equal(byId.compact_json.tokens[0].total_tokens, 691);
  assert.equal(byId.toon_listing.tokens[0].total_tokens, 817);
  assert.equal(byId.tron_dedup.tokens[0].total_tokens, 689);
  // tscg: whole-arm skip with its reason, no numbers
  assert.equal(byId.tscg.skipped, true);
  assert.equal(byId.tscg.skip_reason, 'skipped: @tscg/core not installed');
  assert.deepEqual(byId.tscg.tokens, []);
  assert.deepEqual(byId.tscg.index_docs, []);
  const agree = rankingAgreement(rows);
  assert.deepEqual(agree.orders, [
    { tokenizer: 'cl100k_base', arms: ['compact_sig', 'baseline_json', 'tron_dedup', 'compact_json', 'toon_listing'] },
    { tokenizer: 'o200k_base', arms: ['compact_sig', 'baseline_json', 'tron_dedup', 'compact_json', 'toon_listing'] },
  ]);
  assert.equal(agree.same, true);
  // without a baseline run, savings are not computable
  const alone = await runArm(getArm('compact_sig'), corpus, TKS);
  assert.equal(alone.tokens[0].savings_vs_baseline_pct, null);
  // a baseline from another corpus is refused
  await assert.rejects(
    runArm(getArm('compact_sig'), sampleCorpus(sampleTools(), 'other-v1'), TKS, base),
    /baseline was run on corpus arms-sample-v1/,
  );
  await assert.rejects(runArm(getArm('compact_sig'), corpus, TKS, byId.compact_json), /baseline must be a baseline_json result/);
});

test('rankingAgreement reports a disagreement', () => {
  const row = (arm: string, cl: number, o2: number): ArmRunResult =>
    ({
      arm,
      skipped: false,
      tokens: [
        { tokenizer: 'cl100k_base', total_tokens: cl },
        { tokenizer: 'o200k_base', total_tokens: o2 },
      ],
    }) as unknown as ArmRunResult;
  const r = rankingAgreement([row('a', 10, 20), row('b', 12, 18), row('c', 12, 30)]);
  assert.deepEqual(r.orders, [
    { tokenizer: 'cl100k_base', arms: ['a', 'b', 'c'] },
    { tokenizer: 'o200k_base', arms: ['b', 'a', 'c'] },
  ]);
  assert.equal(r.same, false);
});

test('tools an arm cannot encode are counted skips with the first 5 examples, in corpus order', async () => {
  const bad = Array.from({ length: 7 }, (_, i) => tool(`bad${i}`, 'd', i % 2 ? { properties: [] } : 'oops'));
  const tools = [sampleTools()[1], ...bad.slice(0, 3), sampleTools()[2], ...bad.slice(3)];
  const r = await runArm(getArm('compact_sig'), sampleCorpus(tools), TKS);
  assert.equal(r.skipped, false);
  assert.equal(r.skipped_tools, 7);
  assert.deepEqual(r.skipped_examples, [
    { tool_id: 's:bad0', error: 'inputSchema must be a JSON object' },
    { tool_id: 's:bad1', error: 'inputSchema.properties must be an object' },
    { tool_id: 's:bad2', error: 'inputSchema must be a JSON object' },
    { tool_id: 's:bad3', error: 'inputSchema.properties must be an object' },
    { tool_id: 's:bad4', error: 'inputSchema must be a JSON object' },
  ]);
  assert.deepEqual(r.tool_ids, ['filesystem:create_directory', 'filesystem:directory_tree']);
  const listing = getArm('compact_sig').renderListing([sampleTools()[1], sampleTools()[2]]);
  assert.equal(r.tokens[0].total_tokens, getTokenizer('cl100k_base').count(listing));
  assert.deepEqual(r.tokens[0].per_tool, [56, 82]);
  // baseline encodes the same malformed schemas fine (they are valid JSON values)
  const b = await runArm(getArm('baseline_json'), sampleCorpus(tools), TKS);
  assert.equal(b.skipped_tools, 0);
});

test('a listing-level failure naming a tool skips that tool and renders again (tron collision)', async () => {
  const tools = [tool('one', 'first', COLLIDING_SCHEMAS[0]), sampleTools()[1], tool('two', 'second', COLLIDING_SCHEMAS[1])];
  const r = await runArm(getArm('tron_dedup'), sampleCorpus(tools), TKS);
  assert.equal(r.skipped_tools, 1);
  assert.deepEqual(r.skipped_examples, [
    { tool_id: 's:two', error: 'listing: class name Cd14e8501 collides with a different schema seen earlier in the listing' },
  ]);
  assert.deepEqual(r.tool_ids, ['s:one', 'filesystem:create_directory']);
  assert.equal(r.index_docs.length, 2);
  assert.equal(r.tokens[1].total_tokens, getTokenizer('o200k_base').count(getArm('tron_dedup').renderListing([tools[0], tools[1]])));
});

test('no encodable tool -> arm-level skip naming the first failure; empty corpus -> UserError', async () => {
  const r = await runArm(getArm('compact_sig'), sampleCorpus([tool('x', 'd', 'oops'), tool('y', 'd', 1)]), TKS);
  assert.equal(r.skipped, true);
  assert.equal(r.skipped_tools, 2);
  assert.equal(
    r.skip_reason,
    'no tool of corpus arms-sample-v1 could be encoded (2 skipped; first: s:x: inputSchema must be a JSON object)',
  );
  assert.deepEqual(r.tokens, []);
  await assert.rejects(
    runArm(getArm('baseline_json'), sampleCorpus([]), TKS),
    (e: unknown) => e instanceof UserError && /corpus arms-sample-v1: no tools/.test((e as Error).message),
  );
});

test('index metadata failures are skips; errors that are not ArmEncodeError propagate', async () => {
  const base = getArm('baseline_json');
  // Test doubles of the Arm interface: the only way to provoke these two failure paths.
  const docFails: Arm = {
    ...base,
    meta: { ...base.meta, id: 'doc_fails' },
    indexDoc: (t) => {
      throw new ArmEncodeError('doc_fails', 'no metadata', t.tool_id);
    },
  };
  const r = await runArm(docFails, sampleCorpus(sampleTools().slice(0, 2)), TKS);
  assert.equal(r.skipped, true);
  assert.deepEqual(r.skipped_examples[0], { tool_id: 'fetch:fetch', error: 'index metadata: no metadata' });
  const buggy: Arm = {
    ...base,
    meta: { ...base.meta, id: 'buggy' },
    renderTool: () => {
      throw new TypeError('boom');
    },
  };
  await assert.rejects(runArm(buggy, sampleCorpus(), TKS), /boom/);
  const listingBug: Arm = {
    ...base,
    meta: { ...base.meta, id: 'listing_bug' },
    renderListing: () => {
      throw new ArmEncodeError('listing_bug', 'whole listing broken');
    },
  };
  await assert.rejects(
    runArm(listingBug, sampleCorpus(), TKS),
    /arm listing_bug: listing of corpus arms-sample-v1 failed: listing_bug: whole listing broken/,
  );
});

test('heaviest: tokens descending, ties by tool_id ascending, capped', () => {
  const ids = ['m', 'b', 'a', 'z', 'c'];
  assert.deepEqual(heaviest(ids, [5, 9, 9, 1, 5], 4), [
    { tool_id: 'a', tokens: 9 },
    { tool_id: 'b', tokens: 9 },
    { tool_id: 'c', tokens: 5 },
    { tool_id: 'm', tokens: 5 },
  ]);
});

test('runs are byte-identical and heaviest is capped at 10', async () => {
  const many = Array.from({ length: 12 }, (_, i) => tool(`t${String(i).padStart(2, '0')}`, 'same description'));
  const r1 = await runArm(getArm('toon_listing'), sampleCorpus(many), TKS);
  const r2 = await runArm(getArm('toon_listing'), sampleCorpus(many), TKS);
  assert.deepEqual(r1, r2);
  assert.equal(r1.tokens[0].heaviest_tools.length, 10);
  // all equal counts -> pure tool_id order
  assert.deepEqual(
    r1.tokens[0].heaviest_tools.map((h) => h.tool_id),
    many.slice(0, 10).map((t) => t.tool_id),
  );
});
