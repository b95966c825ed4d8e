/**
 * `bench --live` against proxies that are not discovery proxies, and a run where every call
 * fails (real processes, real loopback HTTP, the real fixture behind every gateway):
 * - a stdio->HTTP pass-through bridge: style detected, a menu-only report, exit 0;
 * - an SSE-only aggregator reached with --transport auto from a bare origin (404 on /mcp ->
 *   SSE), renamed tools matched by --tool-map, exit 0;
 * - every discovery call fails: exit 2, the report is written, marked failed, no retrieval figures.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fixtureServer, MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';
import { validateReport } from '../../pipeline/report/validate.ts';
import { scriptArgs } from '../script-args.ts';

const GATEWAY = resolve(import.meta.dirname, 'servers', 'gateway.ts');
const FIXTURE_TOOLS = ['echo', 'ping', 'slow', 'large', 'fail', 'stats'];
const t = tempDir('live-gateways');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill('SIGTERM');
  t.cleanup();
});

async function startGateway(mode: 'bridge' | 'sse'): Promise<string> {
  const c = spawn(process.execPath, [...scriptArgs(GATEWAY), '--mode', mode], { stdio: ['pipe', 'ignore', 'pipe'] });
  children.push(c);
  let err = '';
  return new Promise((res, rej) => {
    c.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) res(m[1]);
    });
    c.once('exit', (code) => rej(new Error(`gateway ${mode} exited ${code}: ${err}`)));
  });
}

function bench(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [
        MCPGAUGE_BIN,
        'bench',
        '--no-offline',
        '--live',
        '--tokenizers',
        'cl100k_base',
        '--bootstrap',
        '10',
        '--connect-timeout',
        '120000',
        ...args,
      ],
      { timeout: 240_000, maxBuffer: 32 << 20 },
      (e, _o, stderr) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

const upstreams = () => t.write('upstreams.json', { servers: [fixtureServer()], connect_timeout_ms: 120_000 });

test('a stdio->HTTP pass-through bridge: detected as pass-through, a menu-only report, exit 0', async () => {
  const origin = await startGateway('bridge');
  const out = join(t.dir, 'bridge');
  const r = await bench(['--out', out, '--proxy-url', `${origin}/mcp`, '--upstreams', upstreams(), '--runs', '3', '--warmup', '1']);
  assert.equal(r.code, 0, r.stderr);
  const live = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).live!;
  assert.equal(live.style, 'passthrough');
  assert.equal(live.discovery?.status, 'not_applicable');
  assert.deepEqual(
    [live.responses.length, live.retrieval.length, live.latency.length, live.economics.break_even.length],
    [0, 0, 0, 0],
    'no discovery figures',
  );
  assert.equal(live.target.transport, 'streamable-http');
  const pt = live.passthrough!;
  assert.equal(pt.matched, FIXTURE_TOOLS.length);
  assert.deepEqual(pt.unmatched_upstream, []);
  assert.ok(
    pt.per_tool.every((x) => x.proxy_name === `fixture__${x.upstream.split(':')[1]}` && x.proxy_tokens! > x.upstream_tokens),
    JSON.stringify(pt.per_tool),
  );
  assert.equal(
    pt.prefix_overhead_tokens,
    pt.per_tool.reduce((a, x) => a + (x.proxy_tokens! - x.upstream_tokens), 0),
  );
  assert.ok(pt.prefix_overhead_tokens > 0);
  assert.equal(live.cheap_call?.method, 'tools/list');
  assert.equal(live.cheap_call?.n, 3);
  assert.deepEqual(live.calls, { readiness: { n: 0, errors: 0 }, warmup: { n: 1, errors: 0 }, measured: { n: 3, errors: 0 } });
  assert.equal(live.status?.state, 'ok');
  assert.match(r.stderr, /live style: passthrough/);
});

test('an SSE-only aggregator from a bare origin: --transport auto falls back to SSE and says so; --tool-map matches renamed tools', async () => {
  const sseUrl = await startGateway('sse');
  const origin = sseUrl.replace(/\/sse$/, '');
  const map = t.write('map.json', Object.fromEntries(FIXTURE_TOOLS.map((n) => [`fixture:${n}`, `fx.${n}`])));
  const out = join(t.dir, 'sse');
  const r = await bench([
    '--out',
    out,
    '--proxy-url',
    origin,
    '--upstreams',
    upstreams(),
    '--tool-map',
    map,
    '--runs',
    '2',
    '--warmup',
    '0',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp answered 404; trying SSE/);
  const live = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).live!;
  assert.equal(live.target.transport, 'sse');
  assert.equal(live.style, 'passthrough');
  assert.equal(live.passthrough!.matched, FIXTURE_TOOLS.length);
  assert.ok(live.passthrough!.per_tool.every((x) => x.how === 'tool map'));
  // forced streamable HTTP: the error names the status and hints at SSE
  const r2 = await bench([
    '--out',
    join(t.dir, 'sse-forced'),
    '--proxy-url',
    origin,
    '--transport',
    'streamable-http',
    '--upstreams',
    upstreams(),
  ]);
  assert.equal(r2.code, 2); // could not run as asked
  assert.match(r2.stderr, /mcpgauge: live: cannot connect to http:\/\/127\.0\.0\.1:\d+\/mcp: HTTP 404.*try the SSE transport/);
});

test('every discovery call fails: exit 2, the report is written and marked failed, no retrieval figures', async () => {
  const out = join(t.dir, 'failing');
  // the fixture's `fail` tool as the "discovery tool": every call is a tool error
  const cmd = `node ${join(resolve(import.meta.dirname, '..', '..'), 'bin', 'mcpfixture.mjs')} --transport stdio`;
  const r = await bench([
    '--out',
    out,
    '--proxy-cmd',
    cmd,
    '--style',
    'discovery',
    '--discovery-tool',
    'fail',
    '--query-arg',
    'message',
    '--live-queries',
    '3',
    '--runs',
    '1',
    '--warmup',
    '1',
    '--ready-timeout',
    '1',
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /live stage FAILED: 3 of 3 measured calls failed \(error rate 1\.000 > --max-error-rate 0\)/);
  const report = validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const live = report.live!;
  assert.equal(live.status?.state, 'failed');
  assert.deepEqual(live.calls?.measured, { n: 3, errors: 3 });
  assert.equal(live.calls?.warmup.n, 1, 'the warm-up call is counted apart');
  assert.ok(
    live.retrieval.every((x) => x.summary === undefined && /all 3 discovery calls at detail full failed/.test(x.not_computed_reason ?? '')),
    JSON.stringify(live.retrieval.map((x) => x.not_computed_reason)),
  );
  assert.deepEqual([live.response_summary.length, live.latency.length, live.economics.break_even.length], [0, 0, 0]);
  assert.ok(live.not_computed?.some((n) => n.what === 'retrieval (full)'));
  const html = readFileSync(join(out, 'dashboard.html'), 'utf8');
  assert.match(html, /RUN FAILED/);
});

test('--golden none is honoured (menus + cheap call, no queries); without --upstreams break-even is not computed, never a corpus-based number', async () => {
  const cfg = t.write('ref-proxy.json', { servers: [fixtureServer()], connect_timeout_ms: 120_000 });
  const cmd = `node ${MCPGAUGE_BIN} proxy --config ${cfg} --transport stdio`;
  const out1 = join(t.dir, 'golden-none');
  const r1 = await bench(['--out', out1, '--proxy-cmd', cmd, '--golden', 'none', '--runs', '2', '--warmup', '0']);
  assert.equal(r1.code, 0, r1.stderr);
  assert.match(r1.stderr, /--golden none: no golden set, so no discovery queries/);
  assert.doesNotMatch(r1.stderr, /scoring the proxy on/);
  const l1 = validateReport(JSON.parse(readFileSync(join(out1, 'report.json'), 'utf8'))).live!;
  assert.equal(l1.style, 'discovery');
  assert.equal(l1.discovery?.status, 'not_measured');
  assert.deepEqual([l1.responses.length, l1.retrieval.length], [0, 0]);
  assert.equal(l1.cheap_call?.n, 2);

  const out2 = join(t.dir, 'no-upstreams');
  const r2 = await bench([
    '--out',
    out2,
    '--proxy-cmd',
    cmd,
    '--live-queries',
    '2',
    '--runs',
    '1',
    '--warmup',
    '0',
    '--ready-timeout',
    '1',
    '--max-error-rate',
    '1',
  ]);
  assert.equal(r2.code, 0, r2.stderr);
  const l2 = validateReport(JSON.parse(readFileSync(join(out2, 'report.json'), 'utf8'))).live!;
  assert.equal(l2.economics.break_even.length, 0);
  assert.ok(
    l2.not_computed?.some(
      (n) => n.what === 'break-even and menu savings' && /not listed from the upstreams this proxy fronts/.test(n.reason),
    ),
    JSON.stringify(l2.not_computed),
  );
  assert.equal(l2.menus[0].full_menu_tokens.provenance, 'estimated');
});
