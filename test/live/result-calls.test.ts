/**
 * Honest live result calls (real embedded reference proxy in front of the real filesystem server):
 * - a wrong `--call-args-arg` makes every result call fail: each is an error row and counts
 *   against --max-error-rate (bench exits 2, the report says which calls failed and why);
 * - a missing call tool is one line naming the tools the proxy lists;
 * - a proxy's own `call_with` per result is read from its response.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';
import { validateReport } from '../../pipeline/report/validate.ts';
import { partitionResponse } from '../../pipeline/live/spans.ts';

const t = tempDir('live-result-calls');
after(() => t.cleanup());

function bench(out: string, extra: string[]): Promise<{ code: number; stderr: string }> {
  const args = [
    'bench',
    '--live',
    '--no-offline',
    '--embedded-servers',
    'filesystem',
    '--live-queries',
    '4',
    '--runs',
    '1',
    '--warmup',
    '0',
    '--tokenizers',
    'cl100k_base',
    '--bootstrap',
    '10',
    '--no-lap',
    '--live-details',
    'full',
    '--result-top-k',
    '10',
    // report.json is what these tests read
    '--no-dashboard',
    '--out',
    out,
    ...extra,
  ];
  return new Promise((res) =>
    execFile(process.execPath, [MCPGAUGE_BIN, ...args], { timeout: 180_000, maxBuffer: 32 << 20 }, (e, _o, stderr) =>
      res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}

test('--call-args-arg: failed result calls are error rows and count against --max-error-rate', async () => {
  const out = join(t.dir, 'args');
  const r = await bench(out, ['--call-args-arg', 'args']);
  assert.equal(r.code, 2, r.stderr);
  const live = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).live!;
  const cost = live.result_cost!;
  assert.deepEqual(cost.call_args, { name: 'name', arguments: 'args' });
  assert.ok(cost.rows.length > 0, 'some golden calls ran');
  assert.ok(cost.rows.every((x) => !x.ok && x.call_tool === 'call_tool'));
  const rows = live.errors.filter((e) => e.where.startsWith('result_call:'));
  assert.equal(rows.length, cost.rows.length, 'one error row per failed result call');
  assert.equal(live.status?.state, 'failed');
  assert.equal(live.status?.failed_calls, rows.length);
  assert.match(r.stderr, new RegExp(`${rows.length} error row\\(s\\)`));
});

test('a missing call tool: one line naming the tools the proxy lists', async () => {
  const r = await bench(join(t.dir, 'missing'), ['--call-tool', 'nosuch']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l.includes('"nosuch"'));
  assert.equal(lines.length, 1, r.stderr);
  // live recall on the console summary
  assert.match(r.stderr, /live retrieval full: recall@5 \d\.\d{3} MRR \d\.\d{3} \(4 queries/);
  assert.match(lines[0], /the proxy lists no "nosuch" tool \(it lists: retrieve_tools, call_tool, .*\); set --call-tool/);
  const live = JSON.parse(readFileSync(join(t.dir, 'missing', 'report.json'), 'utf8')).live;
  assert.match(live.result_cost.missing_call_tool, /it lists: retrieve_tools/);
  assert.ok(live.errors.some((e: { where: string }) => e.where === 'result_cost'));
});

test("call_with: a discovery response's per-result call tool is read by tool id", () => {
  const text = JSON.stringify({
    tools: [
      { name: 'fs:read', server: 'fs', call_with: 'call_tool_read', score: 1 },
      { name: 'fs:rm', call_with: 'call_tool_destructive' },
      { name: 'fs:x' },
    ],
  });
  const p = partitionResponse(text);
  assert.deepEqual(p.ranking, ['fs:read', 'fs:rm', 'fs:x']);
  assert.deepEqual(p.callWith, { 'fs:read': 'call_tool_read', 'fs:rm': 'call_tool_destructive' });
  assert.equal(partitionResponse(JSON.stringify({ tools: [{ name: 'a' }] })).callWith, undefined);
});
