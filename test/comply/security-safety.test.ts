/**
 * The security probes are safe to point at a real server and honest about what they find:
 * payloads and bursts go only to tools annotated readOnlyHint:true (server-filesystem has write
 * tools: its directory is unchanged after a full run), --no-invasive sends none of them, the
 * evidence patterns never match their own payload (an echo passes), and the probe picker
 * skips every tool that is not read-only.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { comply } from '../../pipeline/comply/comply.ts';
import { INJECTIONS, bearerChallenge, pickInjectionTarget } from '../../pipeline/comply/gather/probes/security-kit.ts';
import type { Evidence } from '../../pipeline/comply/types.ts';
import { FEATURES, stdioRuns } from './harness.ts';

const require = createRequire(import.meta.url);
const FS_ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist', 'index.js');
const tmp = mkdtempSync(join(tmpdir(), 'comply-safety-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SECURITY_PROBE = /^(inject-|extra-params|burst-)/;
const OPTS = { spec: 'auto' as const, timeoutMs: 15_000, startupTimeoutMs: 60_000, selection: { only: [], skip: [] }, secrets: [] };

/** the tools/call requests the security probes sent */
function calledTools(ev: Evidence): Array<{ probe: string; tool: string }> {
  return ev.exchanges
    .filter((e) => SECURITY_PROBE.test(e.probe))
    .map((e) => ({ probe: e.probe, msg: JSON.parse(e.request.body) as { method?: string; params?: { name?: unknown } } }))
    .filter((x) => x.msg.method === 'tools/call')
    .map((x) => ({ probe: x.probe, tool: String(x.msg.params?.name) }));
}

describe('security probes: safe on real servers, evidence-only', { concurrency: 2, timeout: 120_000 }, () => {
  it('server-filesystem: payloads reach only its read-only tools and its directory is unchanged', async () => {
    writeFileSync(join(tmp, 'keep.txt'), 'unchanged\n');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const { report, recording } = await comply(
      { kind: 'stdio', command: process.execPath, args: [FS_ENTRY, tmp], env },
      { ...OPTS, invasive: true },
    );
    const tools = new Map(
      (
        (
          recording.evidence[0].exchanges.find((e) => e.probe === 'tools-list')?.response?.messages[0] as
            | undefined
            | { result?: { tools?: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> } }
        )?.result?.tools ?? []
      ).map((t) => [t.name, t]),
    );
    assert.ok(
      [...tools.values()].some((t) => t.annotations?.readOnlyHint === false),
      'the server lists write tools (the case this test is about)',
    );
    const calls = calledTools(recording.evidence[0]);
    assert.ok(calls.length >= 5, `payload probes were sent (${calls.length})`);
    for (const c of calls) assert.equal(tools.get(c.tool)?.annotations?.readOnlyHint, true, `${c.probe} called ${c.tool}`);
    assert.deepEqual(readdirSync(tmp), ['keep.txt']);
    assert.equal(readFileSync(join(tmp, 'keep.txt'), 'utf8'), 'unchanged\n');
    const traversal = report.runs[0].results.find((x) => x.id === 'security-path-traversal')!;
    assert.equal(traversal.status, 'pass', traversal.detail);
  });

  it('--no-invasive sends no payload, no undeclared arguments and no burst', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const { recording, report } = await comply(
      { kind: 'stdio', command: process.execPath, args: [FS_ENTRY, tmp], env },
      { ...OPTS, invasive: false },
    );
    assert.deepEqual(calledTools(recording.evidence[0]), []);
    const r = report.runs[0].results.find((x) => x.id === 'security-command-injection')!;
    assert.equal(r.status, 'not_evaluable');
  });

  it('an echo of every payload is no evidence; the evidence patterns do fire on the real thing', () => {
    for (const [kind, { payload, evidence }] of Object.entries(INJECTIONS)) {
      assert.ok(!evidence.test(payload), `${kind}: the payload alone`);
      assert.ok(!evidence.test(JSON.stringify({ content: [{ type: 'text', text: `echo: ${payload}` }] })), `${kind}: an echo`);
    }
    assert.ok(INJECTIONS.command.evidence.test('uid=1000(app) gid=1000(app) groups=1000(app)'));
    assert.ok(INJECTIONS.traversal.evidence.test('root:x:0:0:root:/root:/bin/bash'));
    assert.ok(INJECTIONS.sql.evidence.test('SQLITE_ERROR: near "OR": syntax error'));
    assert.ok(INJECTIONS.ssrf.evidence.test('ami-id\ninstance-id'));
  });

  it('the target picker takes only read-only tools, fills required arguments from the schema, prefers path/URL arguments', () => {
    const str = { type: 'string' };
    const tools = [
      {
        name: 'write_file',
        annotations: { readOnlyHint: false },
        inputSchema: { type: 'object', properties: { path: str, content: str }, required: ['path', 'content'] },
      },
      { name: 'delete_all', inputSchema: { type: 'object', properties: { query: str } } },
      {
        name: 'search',
        annotations: { readOnlyHint: true },
        inputSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 }, query: str }, required: ['limit', 'query'] },
      },
      {
        name: 'read',
        annotations: { readOnlyHint: true },
        inputSchema: {
          type: 'object',
          properties: { path: str, mode: { type: 'string', enum: ['text', 'hex'] } },
          required: ['path', 'mode'],
        },
      },
      {
        name: 'fetch',
        annotations: { readOnlyHint: true },
        inputSchema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] },
      },
    ];
    assert.deepEqual(pickInjectionTarget(tools, 'path'), { tool: 'read', arg: 'path', base: { mode: 'text' } });
    assert.deepEqual(pickInjectionTarget(tools, 'url'), { tool: 'fetch', arg: 'url', base: {} });
    assert.deepEqual(pickInjectionTarget(tools, 'any'), { tool: 'search', arg: 'query', base: { limit: 1 } });
    assert.equal(pickInjectionTarget(tools.slice(0, 2), 'any'), null, 'no read-only tool: nothing is probed');
  });

  it('a Bearer challenge is read into its parameters; other schemes are not Bearer', () => {
    assert.deepEqual(
      bearerChallenge(
        'Bearer resource_metadata="https://a/.well-known/oauth-protected-resource/mcp", scope="mcp files", error=invalid_token',
      ),
      {
        resource_metadata: 'https://a/.well-known/oauth-protected-resource/mcp',
        scope: 'mcp files',
        error: 'invalid_token',
      },
    );
    assert.equal(bearerChallenge('Basic realm="x"'), null);
    assert.equal(bearerChallenge(undefined), null);
  });

  it('the fixture with every security knob of the tool-input kind on stdio: each injection check fails with its evidence', async () => {
    const [r] = await stdioRuns('2026-07-28', {
      ...FEATURES,
      FIXTURE_BREAK: 'command-injection,sql-injection,path-traversal,ssrf-internal',
    });
    for (const id of ['security-command-injection', 'security-sql-injection', 'security-path-traversal', 'security-ssrf-internal']) {
      const x = r.results.find((y) => y.id === id)!;
      assert.equal(x.status, 'fail', `${id}: ${x.detail}`);
      assert.match(x.detail, /contains/);
    }
  });
});
