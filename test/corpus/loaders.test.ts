import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { serializeFrozen } from '../../pipeline/corpus/frozen.ts';
import { canonicalJson } from '../../pipeline/corpus/canonical.ts';
import { UserError, type ToolRecord } from '../../pipeline/types.ts';
import { liveFlat, liveMarketplace, tempDir, writeJson } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
let n = 0;
const file = (value: unknown, name?: string) => writeJson(join(tmp.dir, `${n++}`, name ?? 'c.json'), value);

/** Assert a one-line UserError whose message matches every pattern. */
async function rejects(p: Promise<unknown>, ...patterns: RegExp[]) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof UserError, `expected UserError, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
    assert.ok(!e.message.includes('\n'), `message must be one line: ${e.message}`);
    for (const re of patterns) assert.match(e.message, re);
    return true;
  });
}

const TOOLS: ToolRecord[] = [
  {
    tool_id: 'b:zeta',
    server: 'b',
    tool: 'zeta',
    description: 'Zeta does the last thing in order',
    inputSchema: { type: 'object', properties: { x: { type: 'integer' } } },
  },
  {
    tool_id: 'a:alpha',
    server: 'a',
    tool: 'alpha',
    description: 'Alpha does the first thing in order',
    annotations: { readOnlyHint: true },
  },
];

function frozenText(version = 'corpus-test-v1', tools = TOOLS) {
  const sorted = [...tools].sort((x, y) => (x.tool_id < y.tool_id ? -1 : 1));
  return serializeFrozen({ version, name: 'test corpus', license: 'MIT', generated_from: { generator: 'test' }, tools: sorted });
}

// ------------------------------------------------------------ frozen (mcpgauge)

test('frozen corpus: round trip, sorted canonical records, descriptor', async () => {
  const p = file(frozenText(), 'corpus-test-v1.tools.json');
  const c = await loadCorpus(p);
  assert.equal(c.format, 'mcpgauge');
  assert.equal(c.version, 'corpus-test-v1');
  assert.equal(c.id, 'corpus-test-v1');
  assert.equal(c.committed, false);
  assert.deepEqual(
    c.tools.map((t) => t.tool_id),
    ['a:alpha', 'b:zeta'],
  );
  assert.deepEqual(c.tools[0].annotations, { readOnlyHint: true });
  assert.equal(c.tools[0].inputSchema, undefined);
  assert.deepEqual(c.tools[1].inputSchema, { properties: { x: { type: 'integer' } }, type: 'object' });
  // serialization is deterministic: same input -> same bytes, keys in canonical order
  assert.equal(frozenText(), frozenText());
  assert.match(frozenText(), /^\{\n {2}"attribution"|^\{\n {2}"format"/);
});

test('frozen corpus: the committed corpus-npm4-v1 loads', async () => {
  const c = await loadCorpus(join(import.meta.dirname, '..', '..', 'datasets', 'corpus-npm4-v1.tools.json'));
  assert.equal(c.committed, true);
  assert.equal(c.tools.length, 37);
  assert.deepEqual([...new Set(c.tools.map((t) => t.server))], ['everything', 'filesystem', 'memory', 'sequential-thinking']);
});

test('frozen corpus: bad input names file, JSON path and reason', async () => {
  const good = JSON.parse(frozenText());
  await rejects(
    loadCorpus(file('{"format": "mcpgauge-corpus", ', 'corpus-test-v1.tools.json')),
    /corpus-test-v1\.tools\.json: \$: malformed JSON/,
  );
  await rejects(loadCorpus(file('', 'corpus-test-v1.tools.json')), /\$: malformed JSON: file is empty/);
  await rejects(
    loadCorpus(file({ ...good, tool_count: 3 }, 'corpus-test-v1.tools.json')),
    /\$\.tool_count: header says 3 tools, rows have 2/,
  );
  await rejects(
    loadCorpus(file({ ...good, server_count: 1 }, 'corpus-test-v1.tools.json')),
    /\$\.server_count: header says 1 servers, rows have 2/,
  );
  await rejects(loadCorpus(file(good, 'corpus-other-v9.tools.json')), /\$\.version: version "corpus-test-v1" does not match the file name/);
  await rejects(loadCorpus(file({ ...good, extra: 1 }, 'corpus-test-v1.tools.json')), /\$\.extra: unknown key/);
  await rejects(
    loadCorpus(file({ ...good, format_version: 2 }, 'corpus-test-v1.tools.json')),
    /\$\.format_version: unsupported format_version 2/,
  );
  const dup = { ...good, tools: [good.tools[0], good.tools[0], good.tools[1]], tool_count: 3 };
  await rejects(
    loadCorpus(file(dup, 'corpus-test-v1.tools.json')),
    /\$\.tools\[1\]: duplicate tool_id "a:alpha" \(first at \$\.tools\[0\]\)/,
  );
  const edited = structuredClone(good);
  edited.tools[0].description = 'hand edited';
  await rejects(loadCorpus(file(edited, 'corpus-test-v1.tools.json')), /\$\.tools_sha256: does not match the tools/);
  const badId = structuredClone(good);
  badId.tools[1].tool_id = 'b:other';
  await rejects(
    loadCorpus(file(badId, 'corpus-test-v1.tools.json')),
    /\$\.tools\[1\]\.tool_id: tool_id "b:other" does not equal server:tool "b:zeta"/,
  );
  const badSchema = structuredClone(good);
  badSchema.tools[1].inputSchema = [1, 2];
  await rejects(
    loadCorpus(file(badSchema, 'corpus-test-v1.tools.json')),
    /\$\.tools\[1\]\.inputSchema: inputSchema must be a JSON object, got array/,
  );
  await rejects(loadCorpus(join(tmp.dir, 'missing.json')), /missing\.json: cannot read corpus \(ENOENT\)/);
});

// ------------------------------------------------------------ mcpproxy v1 / v2

test('mcpproxy v1 (no schemas) and v2 (schemas) load; tools sorted, schemas canonical', async () => {
  const v1 = await loadCorpus(
    file({
      version: 'corpus_v1',
      generated_from: { source: 'GET /api/v1/tools' },
      tools: [
        { tool_id: 'time:now', server: 'time', tool: 'now', description: 'Current time in a timezone' },
        { tool_id: 'fetch:fetch', server: 'fetch', tool: 'fetch', description: 'Fetches a URL from the internet' },
      ],
    }),
  );
  assert.equal(v1.format, 'mcpproxy-v1');
  assert.equal(v1.version, 'corpus_v1');
  assert.deepEqual(
    v1.tools.map((t) => t.tool_id),
    ['fetch:fetch', 'time:now'],
  );
  assert.ok(v1.tools.every((t) => t.inputSchema === undefined));

  const v2 = await loadCorpus(
    file({
      version: 'corpus_v2@2026-07-14',
      tools: [
        {
          tool_id: 'fetch:fetch',
          server: 'fetch',
          tool: 'fetch',
          description: 'Fetches a URL',
          schema: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
        },
      ],
    }),
  );
  assert.equal(v2.format, 'mcpproxy-v2');
  assert.equal(canonicalJson(v2.tools[0].inputSchema), '{"properties":{"url":{"type":"string"}},"required":["url"],"type":"object"}');
});

test('mcpproxy: bad input', async () => {
  const t = (over: Record<string, unknown> = {}) => ({ tool_id: 'a:x', server: 'a', tool: 'x', description: 'desc for x', ...over });
  await rejects(loadCorpus(file({ tools: [] }), { format: 'mcpproxy' }), /\$\.tools: corpus has no tools/);
  await rejects(
    loadCorpus(file({ tools: [t({ schema: { type: 'object' } }), t({ tool_id: 'a:y', tool: 'y' })] })),
    /\$\.tools\[1\]\.schema: schema is missing \(1 of 2 tools have one/,
  );
  await rejects(loadCorpus(file({ tools: [t({ schema: {} })] })), /\$\.tools\[0\]\.schema: schema must be a non-empty object, got \{\}/);
  await rejects(loadCorpus(file({ tools: [t(), t()] })), /\$\.tools\[1\]: duplicate tool_id "a:x"/);
  await rejects(
    loadCorpus(file({ tools: [t({ description: 7 })] })),
    /\$\.tools\[0\]\.description: description must be a string, got number/,
  );
  await rejects(loadCorpus(file({ tools: [t({ server: '' })] })), /\$\.tools\[0\]\.server: server must be a non-empty string/);
  await rejects(loadCorpus(file({ tools: [t({ tool_id: 'a:zzz' })] })), /does not equal server:tool "a:x"/);
});

// ------------------------------------------------------------ LiveMCPTool

test('LiveMCPTool flattened and marketplace shapes load to identical tools', async () => {
  const flat = await loadCorpus(file(liveFlat()));
  assert.equal(flat.format, 'livemcptool');
  assert.equal(flat.version, 'livemcptool@ddea2d24');
  assert.equal(flat.license, 'Apache-2.0');
  assert.match(flat.attribution ?? '', /arXiv:2508\.01780/);
  assert.deepEqual(
    flat.tools.map((t) => t.tool_id),
    ['calc:add', 'weather:alerts', 'weather:forecast'],
  );
  assert.equal(flat.tools[1].description, '', 'null description becomes ""');
  assert.deepEqual(
    flat.tools[0].inputSchema,
    { properties: { a: { type: 'number' }, b: { type: 'number' } }, type: 'object' },
    'string schema parsed',
  );

  const market = await loadCorpus(file(liveMarketplace()));
  assert.equal(market.format, 'livemcptool');
  assert.equal(market.version, 'livemcptool@unknown-revision');
  assert.equal(canonicalJson(market.tools), canonicalJson(flat.tools));
});

test('LiveMCPTool marketplace: identical duplicate rows collapse, conflicting ones are an error', async () => {
  const m = liveMarketplace() as Array<Record<string, unknown>>;
  const again = structuredClone(m[0]);
  const c = await loadCorpus(file([...m, again]));
  assert.equal(c.tools.length, 3);
  const conflict = structuredClone(m[0]) as { tools: { weather: { tools: Array<{ description: string }> } } };
  conflict.tools.weather.tools[0].description = 'something else';
  await rejects(
    loadCorpus(file([...m, conflict])),
    /\$\[3\]\.tools\.weather\.tools\[0\]: duplicate tool "weather:forecast" differs from the one at \$\[0\]\.tools\.weather\.tools\[0\]/,
  );
  await rejects(loadCorpus(file([{ name: 'x', tools: [] }])), /\$\[0\]\.tools: expected an object mapping server name/);
  await rejects(loadCorpus(file([{ name: 'x' }])), /\$: marketplace array holds no tools/);
});

test('LiveMCPTool flattened: header counts, duplicates and bad rows are errors', async () => {
  await rejects(loadCorpus(file(liveFlat({ tool_count: 527 }))), /\$\.tool_count: header says 527 tools, rows have 3/);
  await rejects(loadCorpus(file(liveFlat({ server_count: 70 }))), /\$\.server_count: header says 70 servers, rows have 2/);
  const d = liveFlat();
  (d.tools as unknown[]).push((d.tools as unknown[])[0]);
  d.tool_count = 4;
  await rejects(loadCorpus(file(d)), /\$\.tools\[3\]: duplicate tool_id "weather:forecast" \(first at \$\.tools\[0\]\)/);
  const s = liveFlat();
  (s.tools as Array<Record<string, unknown>>)[2].inputSchema = '{"type": "object",';
  await rejects(loadCorpus(file(s)), /\$\.tools\[2\]\.inputSchema: inputSchema string is not valid JSON/);
  await rejects(loadCorpus(file(liveFlat({ version: undefined }))), /\$\.version: version must be a non-empty string/);
  await rejects(loadCorpus(file(liveFlat({ tools: [], tool_count: 0, server_count: 0 }))), /\$\.tools: corpus has no tools/);
});

test('LiveMCPTool: the shared offline mirror loads (MCPGAUGE_SHARED_DATASETS=DIR; 527 tools, 70 servers)', async (t) => {
  const dir = process.env.MCPGAUGE_SHARED_DATASETS;
  if (!dir) {
    t.skip('MCPGAUGE_SHARED_DATASETS not set (a folder holding livemcptool/tools.json)');
    return;
  }
  // set means "must be there": a wrong path fails instead of skipping
  const mirror = join(dir, 'livemcptool', 'tools.json');
  readFileSync(mirror);
  const c = await loadCorpus(mirror);
  assert.equal(c.tools.length, 527);
  assert.equal(new Set(c.tools.map((x) => x.server)).size, 70);
  assert.equal(c.tools.filter((x) => x.description === '').length, 19);
});

// ------------------------------------------------------------ sniffing

test('loadCorpus: unknown shapes and wrong explicit formats are one-line errors', async () => {
  await rejects(loadCorpus(file({ hello: 'world' })), /\$: unknown corpus shape \(object with keys hello\)/);
  await rejects(loadCorpus(file('"just a string"')), /unknown corpus shape \(string\)/);
  await rejects(loadCorpus(file(liveFlat()), { format: 'mcpgauge' }), /\$\.format: expected "mcpgauge-corpus", got undefined/);
  await rejects(loadCorpus(file(liveFlat()), { format: 'nope' as never }), /unknown corpus format "nope"/);
  const dir = join(tmp.dir, 'emptydir');
  mkdirSync(dir, { recursive: true });
  await rejects(loadCorpus(dir), /emptydir: expected tools\/ and queries\/ parquet folders/);
  const pq = join(tmp.dir, 'x.parquet');
  writeFileSync(pq, 'PAR1');
  await rejects(loadCorpus(pq), /a single parquet shard is not a corpus/);
});

// ------------------------------------------------------------ raw tools/list dumps

test('tools/list dump: a real server-memory answer (JSON-RPC response over stdio) loads to the same tools as the frozen corpus', async () => {
  const { connectMcp } = await import('../../pipeline/mcp/client.ts');
  const { REPO_ROOT } = await import('../../pipeline/constants.ts');
  const conn = await connectMcp(
    {
      kind: 'stdio',
      command: process.execPath,
      args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
      env: { MEMORY_FILE_PATH: join(tmp.dir, 'mem.jsonl') },
    },
    { timeoutMs: 60_000 },
  );
  let tools: unknown[];
  try {
    tools = (await conn.listAllTools()).map((t) => t as unknown);
  } finally {
    await conn.close();
  }
  // the whole JSON-RPC response, as a user would save it; the server name comes from the file name
  const dump = file({ jsonrpc: '2.0', id: 1, result: { tools } }, 'memory.tools-list.json');
  const c = await loadCorpus(dump);
  assert.equal(c.format, 'tools-list');
  assert.equal(c.version, 'memory.tools-list');
  const frozen = await loadCorpus(join(REPO_ROOT, 'datasets', 'corpus-npm4-v1.tools.json'));
  const fromFreeze = frozen.tools.filter((t) => t.server === 'memory');
  assert.ok(fromFreeze.length >= 9);
  assert.deepEqual(
    c.tools.map((t) => t.tool_id),
    fromFreeze.map((t) => t.tool_id),
  );
  for (const t of c.tools) {
    const f = fromFreeze.find((x) => x.tool_id === t.tool_id)!;
    assert.equal(canonicalJson(t.inputSchema), canonicalJson(f.inputSchema), t.tool_id);
    assert.equal(t.description, f.description, t.tool_id);
  }
  // the bare result shape loads to the same tools; a 2026-07-28 serverInfo names the server
  assert.deepEqual((await loadCorpus(file({ tools }, 'memory.json'))).tools, c.tools);
  const named = await loadCorpus(file({ tools, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'kg', version: '1' } } }, 'x.json'));
  assert.ok(named.tools.every((t) => t.server === 'kg'));
});

test('tools/list dump: one page, an error response, bad tools are one-line errors naming the JSON path', async () => {
  const tool = (over: Record<string, unknown> = {}) => ({
    name: 'read',
    description: 'Read a thing',
    inputSchema: { type: 'object' },
    ...over,
  });
  await rejects(
    loadCorpus(file({ tools: [tool()], nextCursor: 'abc' }, 's.json')),
    /\$\.nextCursor: the dump is one page of a paginated tools\/list/,
  );
  await rejects(
    loadCorpus(file({ jsonrpc: '2.0', id: 1, result: { tools: [tool()] }, error: { code: -1 } }, 's.json')),
    /\$\.error: the dump is a JSON-RPC error response/,
  );
  await rejects(loadCorpus(file({ tools: [] }, 's.json'), { format: 'tools-list' }), /\$\.tools: the dump lists no tools/);
  await rejects(
    loadCorpus(file({ tools: [tool({ inputSchema: undefined })] }, 's.json')),
    /\$\.tools\[0\]\.inputSchema: inputSchema must be an object \(MCP requires one\), got undefined/,
  );
  await rejects(
    loadCorpus(file({ jsonrpc: '2.0', id: 1, result: { tools: [tool(), tool()] } }, 's.json')),
    /\$\.result\.tools\[1\]: duplicate tool_id "s:read"/,
  );
  await rejects(
    loadCorpus(file({ tools: [tool({ name: 7 })] }, 's.json'), { format: 'tools-list' }),
    /\$\.tools\[0\]\.name: name must be a string, got number/,
  );
  // a description may be absent in MCP: loaded as empty, not an error
  assert.equal((await loadCorpus(file({ tools: [tool({ description: undefined })] }, 's.json'))).tools[0].description, '');
  // an mcpproxy file (tool_id on every row) is never taken for a dump
  assert.equal(
    (await loadCorpus(file({ tools: [{ tool_id: 'a:x', server: 'a', tool: 'x', description: 'desc for x' }] }))).format,
    'mcpproxy-v1',
  );
});
