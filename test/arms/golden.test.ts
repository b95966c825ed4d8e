/**
 * Golden outputs: arms/golden/<arm>.listing.txt (renderListing of the sample corpus) and
 * arms/golden/<arm>.tool.txt (renderTool of each sample tool, each preceded by a
 * `=== <tool_id>` header line). Compared byte for byte; `UPDATE_GOLDEN=1` rewrites them.
 * Plus cross-checks against the predecessor's goldens (research note mcpproxy-bench §3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARMS, getArm } from '../../arms/registry.ts';
import { writeFileAtomic } from '../../pipeline/util/fs.ts';
import type { Arm } from '../../arms/types.ts';
import type { ToolRecord, JsonValue } from '../../pipeline/types.ts';
import { predecessorGoldens, sampleTools } from './sample.ts';

const GOLDEN_DIR = fileURLToPath(new URL('../../arms/golden/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function toolFile(arm: Arm, tools: ToolRecord[]): string {
  return tools.map((t) => `=== ${t.tool_id}\n${arm.renderTool(t)}\n`).join('');
}

function checkGolden(file: string, actual: string): void {
  const path = GOLDEN_DIR + file;
  if (UPDATE) {
    writeFileAtomic(path, actual);
    return;
  }
  assert.ok(existsSync(path), `${path} missing (run with UPDATE_GOLDEN=1 to create it)`);
  assert.equal(actual, readFileSync(path, 'utf8'), `${file} differs from the golden (UPDATE_GOLDEN=1 regenerates after review)`);
}

/** Deep copy with object keys in reverse order: renderings must not depend on input key order. */
function reverseKeys(v: JsonValue | undefined): JsonValue | undefined {
  if (Array.isArray(v)) return v.map((x) => reverseKeys(x)!);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .reverse()
        .map((k) => [k, reverseKeys(v[k])!]),
    );
  return v;
}

for (const id of ARMS) {
  test(`golden: ${id}`, async (t) => {
    const arm = getArm(id);
    const reason = await arm.available();
    if (reason !== null) {
      assert.equal(id, 'tscg', `only tscg may be unavailable here, ${id} says: ${reason}`);
      assert.equal(existsSync(GOLDEN_DIR + `${id}.listing.txt`), false, 'no golden for an arm that cannot run here');
      t.skip(reason);
      return;
    }
    const tools = sampleTools();
    const listing = arm.renderListing(tools) + '\n';
    const perTool = toolFile(arm, tools);
    checkGolden(`${id}.listing.txt`, listing);
    checkGolden(`${id}.tool.txt`, perTool);
    // Determinism: same bytes on a second run and on input with different key order.
    const shuffled = sampleTools().map((x) => ({ ...x, inputSchema: reverseKeys(x.inputSchema) })) as ToolRecord[];
    assert.equal(arm.renderListing(shuffled) + '\n', listing);
    assert.equal(toolFile(arm, shuffled), perTool);
  });
}

const first3 = () => sampleTools().slice(0, 3);

test('cross-check: predecessor goldens for the first three corpus_v2 tools', () => {
  const g = predecessorGoldens();
  assert.deepEqual(
    first3().map((t) => t.tool_id),
    ['fetch:fetch', 'filesystem:create_directory', 'filesystem:directory_tree'],
  );
  assert.equal(getArm('baseline_json').renderTool(first3()[0]), g.baseline_json_fetch_tool);
  assert.equal(getArm('compact_sig').renderListing(first3()), g.compact_sig_listing);
  assert.equal(getArm('tron_dedup').renderListing(first3()), g.tron_dedup_listing);
  // TOON: @toon-format/toon differs from toon-go in exactly one line (documented in arms/listing/toon_listing.ts):
  // an empty array renders `default: []` instead of `default[0]:`.
  const ours = getArm('toon_listing').renderListing(first3());
  assert.notEqual(ours, g.toon_listing_listing);
  assert.equal(ours, g.toon_listing_listing.replace('          default[0]:\n', '          default: []\n'));
});
