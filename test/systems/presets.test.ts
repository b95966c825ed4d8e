/**
 * Presets outside the gate: `--system NAME=preset:NAME[,key=val]` parsing (unknown key or preset =
 * one line, exit 2), and a real side-by-side run of the reference proxy and npm mcp-proxy
 * (started from its preset in front of the fixture) writing one report with both (few golden
 * queries, one run, to stay short).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSystemSpec } from '../../pipeline/systems/spec.ts';
import { UserError } from '../../pipeline/types.ts';
import { validateReport } from '../../pipeline/report/validate.ts';
import { MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';
import { splitCommandLine } from '../../pipeline/adapter/index.ts';
import { REPO_ROOT } from '../../pipeline/constants.ts';

/** The docs/live.md example `node bin/mcpgauge.mjs bench <prefix>…` (one line, its comment dropped): the words after `bench`. */
function readmeBench(prefix: string): string[] {
  const lines = readFileSync(join(REPO_ROOT, 'docs', 'live.md'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`node bin/mcpgauge.mjs bench ${prefix}`));
  assert.equal(lines.length, 1, `docs/live.md shows one example starting with bench ${prefix}`);
  return splitCommandLine(lines[0].replace(/\s+#.*$/, '')).slice(3);
}
/** what keeps a docs/live.md example short here (the examples' own flags come first); no dashboard: these
 * tests read report.json (a report of several systems is drawn by test/report/ from test/data/report-systems.json) */
const SHORT = [
  '--no-dashboard',
  '--embedded-servers',
  'fixture',
  '--live-queries',
  '2',
  '--runs',
  '1',
  '--warmup',
  '0',
  '--tokenizers',
  'cl100k_base',
  '--bootstrap',
  '10',
  '--no-lap',
];

const t = tempDir('systems-presets');
after(() => t.cleanup());

function bench(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [MCPGAUGE_BIN, 'bench', ...args], { timeout: 180_000, maxBuffer: 32 << 20 }, (e, _o, stderr) =>
      res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

test('--system preset:NAME: name defaults to the preset, upstream= for single-upstream presets, unknown key/preset exit 2', () => {
  assert.deepEqual(parseSystemSpec('preset:mcp-proxy'), {
    name: 'mcp-proxy',
    kind: 'preset',
    spec: 'preset:mcp-proxy',
    preset: 'mcp-proxy',
  });
  assert.equal(parseSystemSpec('mp=preset:mcp-proxy,upstream=memory').upstream, 'memory');
  const bad = (s: string, re: RegExp) =>
    assert.throws(
      () => parseSystemSpec(s),
      (e: unknown) => e instanceof UserError && e.exitCode === 2 && re.test(e.message) && !e.message.includes('\n'),
    );
  bad('mp=preset:mcp-proxy,port=9', /unknown preset option "port=9" \(valid: upstream=\.\.\.\)/);
  bad('preset:mcp-proxy,upstream=nosuch', /not an embedded upstream/);
  bad('preset:nosuch', /unknown preset "nosuch" \(presets: .*mcp-proxy/);
});

test('bench --live --system reference --system mp=preset:mcp-proxy (the docs/live.md example): one report with both systems', async () => {
  const out = join(t.dir, 'both');
  const args = readmeBench('--live --no-offline --system reference --system mp=preset:mcp-proxy');
  assert.deepEqual(
    args,
    ['--live', '--no-offline', '--system', 'reference', '--system', 'mp=preset:mcp-proxy'],
    'the docs/live.md example',
  );
  const r = await bench([...args, ...SHORT, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const report = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const [ref, mp] = report.systems ?? [];
  assert.deepEqual([ref?.name, ref?.kind, mp?.name, mp?.kind], ['reference', 'reference', 'mp', 'preset']);
  assert.equal(ref.error, undefined, ref.error);
  assert.equal(mp.error, undefined, mp.error);
  assert.equal(ref.live?.style, 'discovery');
  assert.equal(mp.live?.style, 'passthrough', 'mcp-proxy passes the fixture tools through');
  assert.ok((mp.live?.passthrough?.matched ?? 0) >= 6, 'every fixture tool matched through mcp-proxy');
  assert.match(r.stderr, /system mp: menu \d+ tokens \(cl100k_base\), pass-through/);
  // a bad preset option: one line, exit 2, before anything starts
  const bad = await bench(['--live', '--no-offline', '--system', 'mp=preset:mcp-proxy,port=1', '--out', join(t.dir, 'bad')]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
});

test('bench --live --no-offline --preset mcp-proxy (the docs/live.md example): the preset in front of the fixture, measured pass-through', async () => {
  const out = join(t.dir, 'preset');
  const args = readmeBench('--live --no-offline --preset mcp-proxy');
  assert.deepEqual(args, ['--live', '--no-offline', '--preset', 'mcp-proxy'], 'the docs/live.md example');
  const r = await bench([...args, ...SHORT, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const report = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  assert.equal(report.live?.style, 'passthrough', report.live?.style_reason);
  assert.ok((report.live?.passthrough?.matched ?? 0) >= 6, 'every fixture tool matched through mcp-proxy');
  assert.match(r.stderr, /preset mcp-proxy .*fronting fixture/);
});

test('bench --live --system ref=preset:reference: the preset the gate uses starts as a system too ({MCPGAUGE} and {NODE} mean the same in both)', async () => {
  // the preset's command is `node {MCPGAUGE} proxy …`; {MCPGAUGE} once meant "node + the bin" here and
  // "the bin" in the gate, so this system started `node /usr/bin/node …` and exited before listening
  const out = join(t.dir, 'reference-preset');
  const r = await bench(['--live', '--no-offline', '--system', 'ref=preset:reference', ...SHORT, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const report = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const [ref] = report.systems ?? [];
  assert.deepEqual([ref?.name, ref?.kind], ['ref', 'preset']);
  assert.equal(ref.error, undefined, ref.error);
  assert.equal(ref.live?.style, 'discovery');
});

test('bench --live --system direct --system broken=cmd:…: the broken one is recorded with its error, the run exits 2 with the report written', async () => {
  const out = join(t.dir, 'one-broken');
  const r = await bench([
    '--live',
    '--no-offline',
    '--system',
    'direct',
    '--system',
    'broken=cmd:node -e process.exit(3)',
    ...SHORT,
    '--out',
    out,
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^mcpgauge bench: 1 system\(s\) failed: broken \(exit 2; the report records each error\)$/m);
  const report = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const byName = new Map((report.systems ?? []).map((s) => [s.name, s]));
  assert.equal(byName.get('direct')?.error, undefined, 'the other system was measured');
  assert.match(byName.get('broken')?.error ?? '', /cannot connect|exited/, 'the failure is in the report');
});
