/** Presets are data: every committed preset passes its schema; an unknown key is one line, exit 2; mcpproxy's matches its documented surface. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPreset, presetNames, presetAdapter, presetSpec, ADAPTER_DEFAULTS, npmBin } from '../../pipeline/adapter/index.ts';
import { UserError } from '../../pipeline/types.ts';

test('every committed preset loads; the npm ones name an installed bin', () => {
  for (const n of ['mcp-proxy', 'mcpproxy', 'reference', 'supergateway', 'supergateway-streamable-http'])
    assert.ok(presetNames().includes(n), n);
  assert.ok(!presetNames().some((n) => n.endsWith('.config')), 'a proxy config beside the presets is not a preset');
  for (const n of presetNames()) {
    const p = loadPreset(n);
    const spec = presetSpec(p);
    assert.equal(spec.kind, 'command');
    if (p.package) assert.ok(npmBin(p.package).includes(join('node_modules', p.package)), n);
  }
  assert.equal(
    presetSpec(loadPreset('supergateway')).kind === 'command' && (presetSpec(loadPreset('supergateway')) as { url?: string }).url,
    'http://127.0.0.1:{PORT}/sse',
  );
});

test('a preset with an unknown key or an unknown name: one line, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-preset-'));
  try {
    const raw = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'datasets', 'presets', 'mcp-proxy.json'), 'utf8'));
    raw.colour = 'red';
    const f = join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify(raw));
    assert.throws(
      () => loadPreset(f),
      (e: Error) =>
        e instanceof UserError &&
        e.exitCode === 2 &&
        /bad\.json: \/ must NOT have additional properties \("colour"\)/.test(e.message) &&
        !e.message.includes('\n'),
    );
    assert.throws(
      () => loadPreset('nope'),
      (e: Error) =>
        e instanceof UserError && e.exitCode === 2 && e.message.endsWith(`unknown preset "nope" (presets: ${presetNames().join(', ')})`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("mcpproxy's preset matches its documented MCP surface (retrieve_tools, call_tool_read {name, args}, X-API-Key, limit 15)", () => {
  const p = loadPreset('mcpproxy');
  const a = presetAdapter(p, ADAPTER_DEFAULTS);
  assert.equal(a.style, 'discovery');
  assert.equal(a.discoveryTool, 'retrieve_tools');
  assert.deepEqual(a.argNames, { query: 'query', limit: 'limit', detail: 'detail' });
  assert.equal(a.callTool, 'call_tool_read');
  assert.equal(a.callNameArg, 'name');
  assert.equal(a.callArgsArg, 'args');
  assert.equal(p.apiKeyHeader, 'X-API-Key');
  assert.equal(p.limitDefault, 15);
  assert.equal(p.transport, 'streamable-http');
  // the flags the user gives win over the preset
  assert.equal(presetAdapter(p, { ...ADAPTER_DEFAULTS, callTool: 'call_tool_write' }, new Set(['callTool'])).callTool, 'call_tool_write');
});
