/**
 * Arm contract: metadata shape, registry behaviour, and altersIndex declared correctly in both
 * directions (an arm whose index documents differ from baseline's must declare altersIndex=true;
 * one whose documents are identical must declare false).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARMS, getArm, resolveArms, BASELINE_ARM_ID } from '../../pipeline/arms/registry.ts';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { UserError } from '../../pipeline/types.ts';
import type { Arm } from '../../pipeline/arms/types.ts';
import type { ToolRecord } from '../../pipeline/types.ts';
import { sampleTools } from './sample.ts';

test('registry: sorted ids, lookup, resolve', () => {
  assert.deepEqual([...ARMS], ['baseline_json', 'compact_json', 'compact_sig', 'toon_listing', 'tron_dedup', 'tscg']);
  assert.equal(BASELINE_ARM_ID, 'baseline_json');
  for (const id of ARMS) assert.equal(getArm(id).meta.id, id);
  assert.throws(
    () => getArm('toon'),
    (e: unknown) => e instanceof UserError && (e as Error).message === 'unknown arm "toon" (valid: baseline_json, compact_json, compact_sig, toon_listing, tron_dedup, tscg)',
  );
  assert.deepEqual(resolveArms('all').map((a) => a.meta.id), [...ARMS]);
  assert.deepEqual(resolveArms(['all']).map((a) => a.meta.id), [...ARMS]);
  assert.deepEqual(resolveArms(['tron_dedup', 'baseline_json', 'tron_dedup']).map((a) => a.meta.id), ['baseline_json', 'tron_dedup']);
  assert.throws(() => resolveArms([]), UserError);
  assert.throws(() => resolveArms(['compact_sig', 'nope']), /unknown arm "nope"/);
});

test('meta: ids, flags and retry rates', () => {
  const expected: Record<string, [boolean, boolean, number]> = {
    baseline_json: [false, false, 0],
    compact_json: [false, false, 0],
    compact_sig: [true, false, 0],
    toon_listing: [true, false, 0.05],
    tron_dedup: [true, false, 0],
    tscg: [true, true, 0],
  };
  for (const id of ARMS) {
    const m = getArm(id).meta;
    assert.match(m.id, /^[a-z0-9_]+$/);
    assert.ok(m.description.length > 10, `${id} has a description`);
    assert.deepEqual([m.altersIndex, m.lowerBound, m.retryRate], expected[id], id);
  }
});

/** Tool ids whose index document differs from baseline's. */
function indexDiff(arm: Arm, tools: ToolRecord[]): string[] {
  const base = getArm(BASELINE_ARM_ID);
  return tools.filter((t) => JSON.stringify(arm.indexDoc(t)) !== JSON.stringify(base.indexDoc(t))).map((t) => t.tool_id);
}

test('altersIndex is declared correctly in both directions', async (t) => {
  const tools = [...sampleTools(), ...syntheticTools(40, 7, 'contract')];
  for (const id of ARMS) {
    const arm = getArm(id);
    const reason = await arm.available();
    if (reason !== null) {
      t.diagnostic(`${id} not checked: ${reason}`);
      continue;
    }
    const diff = indexDiff(arm, tools);
    if (arm.meta.altersIndex) assert.ok(diff.length > 0, `${id} declares altersIndex=true but its index documents equal baseline's`);
    else assert.deepEqual(diff, [], `${id} declares altersIndex=false but changes the index for ${diff.join(', ')}`);
  }
});

test('the contract check itself catches a wrong declaration', () => {
  const tools = sampleTools();
  // A copy of compact_sig declaring false would be under-declared...
  assert.ok(indexDiff(getArm('compact_sig'), tools).length > 0);
  // ...and a copy of compact_json declaring true would be over-declared.
  assert.deepEqual(indexDiff(getArm('compact_json'), tools), []);
  // Tools without a schema keep baseline's index document under compact_sig and tron_dedup.
  const noSchema = tools.filter((x) => x.inputSchema === undefined);
  assert.equal(noSchema.length, 1);
  assert.deepEqual(indexDiff(getArm('compact_sig'), noSchema), []);
  assert.deepEqual(indexDiff(getArm('tron_dedup'), noSchema), []);
});

test('shared preambles are paid only in the listing: tron_dedup renderTool has no class line', () => {
  const tools = sampleTools();
  for (const tl of tools) assert.ok(!getArm('tron_dedup').renderTool(tl).startsWith('class '));
  assert.ok(getArm('tron_dedup').renderListing(tools).startsWith('class C'));
  assert.ok(!getArm('toon_listing').renderTool(tools[0]).startsWith('['));
  assert.ok(getArm('toon_listing').renderListing(tools).startsWith('[6]:\n'));
});
