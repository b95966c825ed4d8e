/**
 * Arm contract: metadata shape, registry behaviour, and altersIndex declared correctly in both
 * directions (an arm whose index documents differ from baseline's must declare altersIndex=true;
 * one whose documents are identical must declare false).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARMS, getArm, resolveArms, BASELINE_ARM_ID, LISTING_ARMS } from '../../arms/registry.ts';
import { RESULT_ARMS, getResultArm } from '../../arms/result-registry.ts';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { UserError } from '../../pipeline/types.ts';
import type { Arm } from '../../arms/types.ts';
import type { ToolRecord } from '../../pipeline/types.ts';
import { sampleTools } from './sample.ts';

const ARMS_DIR = join(REPO_ROOT, 'arms');

test('registry: sorted ids, lookup, resolve', () => {
  assert.deepEqual([...ARMS], [...ARMS].sort());
  assert.ok(ARMS.includes(BASELINE_ARM_ID));
  for (const id of ARMS) assert.equal(getArm(id).meta.id, id);
  assert.throws(
    () => getArm('toon'),
    (e: unknown) => e instanceof UserError && (e as Error).message === `unknown arm "toon" (valid: ${ARMS.join(', ')})`,
  );
  assert.deepEqual(
    resolveArms('all').map((a) => a.meta.id),
    [...ARMS],
  );
  assert.deepEqual(
    resolveArms(['all']).map((a) => a.meta.id),
    [...ARMS],
  );
  const [first, last] = [ARMS[0], ARMS[ARMS.length - 1]];
  assert.deepEqual(
    resolveArms([last, first, last]).map((a) => a.meta.id),
    [first, last],
  );
  assert.throws(() => resolveArms([]), UserError);
  assert.throws(() => resolveArms([first, 'nope']), /unknown arm "nope"/);
});

test('registry and files agree: one file per arm of each kind, ids unique across kinds', () => {
  const dir = (kind: string) =>
    readdirSync(join(ARMS_DIR, kind))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
      .sort();
  assert.deepEqual(dir('listing'), [...ARMS]);
  assert.deepEqual(dir('result'), [...RESULT_ARMS].sort());
  for (const id of RESULT_ARMS) assert.equal(getResultArm(id).meta.id, id);
  for (const a of LISTING_ARMS) assert.equal(a.meta.kind, 'listing');
});

test('meta: ids, flags and retry rates are well-formed', () => {
  for (const id of ARMS) {
    const m = getArm(id).meta;
    assert.match(m.id, /^[a-z0-9_]+$/);
    assert.ok(m.description.length > 10, `${id} has a description`);
    assert.equal(typeof m.altersIndex, 'boolean');
    assert.equal(typeof m.lowerBound, 'boolean');
    assert.ok(m.retryRate >= 0 && m.retryRate <= 1, `${id} retry rate ${m.retryRate}`);
  }
  // the baseline is the reference: it neither alters the index nor drops information
  const b = getArm(BASELINE_ARM_ID).meta;
  assert.deepEqual([b.altersIndex, b.lowerBound, b.retryRate], [false, false, 0]);
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
