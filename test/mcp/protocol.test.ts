/**
 * The protocol home (pipeline/mcp/protocol.ts, tool-record.ts): era rules on the messages the
 * fronts see, and the data copies of its lists (the proxy config schema) kept equal to it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  LEGACY_REVISION,
  META_PROTOCOL_VERSION,
  MODERN_REVISION,
  PROTOCOL_CHOICES,
  REVISIONS,
  httpEra,
  openingEra,
  type EraRule,
} from '../../pipeline/mcp/protocol.ts';
import { toolRecordOf } from '../../pipeline/mcp/tool-record.ts';

const withVersion = (v: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [META_PROTOCOL_VERSION]: v } } });
const bare = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const RULES: EraRule[] = ['version', 'version-or-method', 'envelope'];

describe('mcp/protocol', () => {
  it('lists the two revisions, oldest first', () => {
    assert.deepEqual(REVISIONS, [LEGACY_REVISION, MODERN_REVISION]);
    assert.ok(LEGACY_REVISION < MODERN_REVISION);
  });

  it('httpEra: each rule on the cases where the fronts differ', () => {
    const cases: Array<[string, unknown, Record<string, string>, Record<EraRule, 'modern' | 'legacy'>]> = [
      ['modern _meta version', withVersion(MODERN_REVISION), {}, { version: 'modern', 'version-or-method': 'modern', envelope: 'modern' }],
      [
        'unsupported _meta version',
        withVersion('1999-01-01'),
        { 'mcp-method': 'tools/list' },
        { version: 'legacy', 'version-or-method': 'legacy', envelope: 'modern' },
      ],
      [
        'Mcp-Method header only',
        bare,
        { 'mcp-method': 'tools/list' },
        { version: 'legacy', 'version-or-method': 'modern', envelope: 'modern' },
      ],
      [
        'modern version header only',
        bare,
        { 'mcp-protocol-version': MODERN_REVISION },
        { version: 'modern', 'version-or-method': 'modern', envelope: 'modern' },
      ],
      [
        'legacy version header',
        bare,
        { 'mcp-protocol-version': LEGACY_REVISION },
        { version: 'legacy', 'version-or-method': 'legacy', envelope: 'legacy' },
      ],
      [
        'non-string _meta version, modern header',
        withVersion(7),
        { 'mcp-protocol-version': MODERN_REVISION },
        { version: 'modern', 'version-or-method': 'modern', envelope: 'modern' },
      ],
      [
        'batch: the first message decides',
        [withVersion(MODERN_REVISION), bare],
        {},
        { version: 'modern', 'version-or-method': 'modern', envelope: 'modern' },
      ],
      [
        'headers only (no body)',
        undefined,
        { 'mcp-method': 'ping' },
        { version: 'legacy', 'version-or-method': 'modern', envelope: 'modern' },
      ],
    ];
    for (const [what, body, headers, want] of cases) {
      for (const rule of RULES) assert.equal(httpEra(body, headers, rule), want[rule], `${what}, rule ${rule}`);
    }
  });

  it('openingEra: initialize is legacy; a _meta version is modern (exact: only the modern revision)', () => {
    assert.equal(openingEra({ method: 'initialize', params: { _meta: { [META_PROTOCOL_VERSION]: MODERN_REVISION } } }), 'legacy');
    assert.equal(openingEra(withVersion('1999-01-01')), 'modern');
    assert.equal(openingEra(withVersion('1999-01-01'), { exact: true }), 'legacy');
    assert.equal(openingEra(withVersion(MODERN_REVISION), { exact: true }), 'modern');
    assert.equal(openingEra(bare), 'legacy');
  });

  it('the proxy config schema offers exactly the protocol choices', () => {
    const schema = JSON.parse(readFileSync('datasets/schemas/proxy.config.schema.json', 'utf8')) as Record<string, unknown>;
    const found: unknown[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v))
          k === 'protocol' && x && typeof x === 'object' && 'enum' in x ? found.push((x as { enum: unknown }).enum) : walk(x);
    };
    walk(schema);
    assert.ok(found.length > 0, 'no "protocol" enum in the proxy config schema');
    for (const e of found) assert.deepEqual(e, [...PROTOCOL_CHOICES]);
  });

  it('toolRecordOf: server:name, string description, schema and annotations kept', () => {
    assert.deepEqual(
      toolRecordOf('s', { name: 't', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }),
      {
        tool_id: 's:t',
        server: 's',
        tool: 't',
        description: 'd',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
      },
    );
    assert.deepEqual(toolRecordOf('s', { name: 't', description: 5 as never }), {
      tool_id: 's:t',
      server: 's',
      tool: 't',
      description: '',
    });
  });
});
