/** The proxy config's JSON Schema: the example configs satisfy it, the README documents every field, schema errors map to the one-line messages. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { UserError } from '../../pipeline/types.ts';
import { compileSchemaFile } from '../../pipeline/util/schema.ts';
import { CONFIG_DEFAULTS, PROXY_CONFIG_SCHEMA, validateProxyConfig, discardScratch } from '../../pipeline/proxy/config.ts';
import { REPO } from './helpers.ts';

const schema = JSON.parse(readFileSync(PROXY_CONFIG_SCHEMA, 'utf8'));
const ok = { servers: [{ name: 'a', command: 'node' }] };

function err(raw: unknown): string {
  try {
    discardScratch(validateProxyConfig(raw, 'cfg.json', {}));
  } catch (e) {
    assert.ok(e instanceof UserError && !e.message.includes('\n'), String(e));
    return e.message;
  }
  return assert.fail('expected a UserError');
}

test('proxy config schema: draft 2020-12, and every example config in datasets/proxy satisfies it', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  const validate = compileSchemaFile(PROXY_CONFIG_SCHEMA);
  const dir = `${REPO}/datasets/proxy`;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')))
    assert.ok(validate(JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`);
});

test('proxy config schema: every field is documented in pipeline/proxy/README.md and every default is a schema field', () => {
  const readme = readFileSync(`${REPO}/pipeline/proxy/README.md`, 'utf8');
  for (const k of Object.keys(schema.properties)) assert.ok(readme.includes(`\`${k}\``), `README does not document ${k}`);
  for (const k of Object.keys(CONFIG_DEFAULTS)) assert.ok(k in schema.properties, `default ${k} is not a schema field`);
  for (const k of Object.keys(CONFIG_DEFAULTS.restart))
    assert.ok(k in schema.properties.restart.properties, `default restart.${k} is not a schema field`);
});

test('proxy config schema: errors become the one-line message of the first field read', () => {
  // unknown fields list the schema's fields in its order
  assert.equal(err({ ...ok, nope: 1 }), `cfg.json: unknown field "nope" (allowed: ${Object.keys(schema.properties).join(', ')})`);
  // of several problems, the earliest field's is reported (servers before listen, entry 0 before entry 1)
  assert.equal(
    err({
      servers: [
        { name: 'a', command: 'node', args: [1] },
        { name: 'b', url: 5 },
      ],
      listen: { port: -1 },
    }),
    'cfg.json: servers[0] ("a"): field "args" must be an array of strings',
  );
  assert.equal(
    err({ servers: [{ name: 'a', url: 'http://a/', command: 'x', cwd: 3 }] }),
    'cfg.json: servers[0] ("a"): field "url" cannot be combined with "command" (an entry is either stdio or remote)',
  );
  assert.equal(err({ ...ok, restart: { factor: Number.NaN } }), 'cfg.json: field "restart.factor" must be a number in 1..100, got null');
  assert.equal(err({ ...ok, tools_limit: 1.5, max_tools_limit: 40 }), 'cfg.json: field "tools_limit" must be an integer in 1..40, got 1.5');
  assert.equal(err({ ...ok, tools_limit: 50, max_tools_limit: 40 }), 'cfg.json: field "tools_limit" must be an integer in 1..40, got 50');
  assert.equal(
    err({ servers: [{ name: 'a', command: 'node', protocol: 'v9' }] }),
    'cfg.json: field "servers[0] ("a").protocol" must be one of legacy|auto|2026-07-28, got "v9"',
  );
  assert.equal(err({ ...ok, retriever: 'nope' }).startsWith('cfg.json: field "retriever" must be one of bm25f, '), true);
  // a null transport is the default, as before the schema
  const c = validateProxyConfig({ servers: [{ name: 'h', url: 'http://127.0.0.1:9/mcp', transport: null }] }, 'cfg.json', {});
  assert.equal((c.servers[0] as { transport: string }).transport, 'streamable-http');
});
