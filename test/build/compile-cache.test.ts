/**
 * The light bundles' compile cache (bin/dist-entry.mjs requireLight): V8's code cache for a
 * CommonJS bundle run through vm.Script, kept in .v8/ beside it. Each case runs a real node
 * process on a copy of bin/dist-entry.mjs and a small bundle of its own in a temporary tree, and
 * reads what the loader traced (MCPGAUGE_TRACE_LOADS) and wrote.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { writeToolRetFixture } from '../corpus/helpers.ts';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'mcpgauge-compile-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** a tree with bin/dist-entry.mjs and dist/x-bundle/x.cjs (`body` is the bundle's source) */
function tree(name: string, body: string): { dir: string; bundleDir: string; cacheDir: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'x-bundle'), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'bin', 'dist-entry.mjs'), join(dir, 'bin', 'dist-entry.mjs'));
  writeFileSync(
    join(dir, 'bin', 'main.mjs'),
    "import { requireLight } from './dist-entry.mjs';\nconst m = requireLight('x', 'x-bundle');\nconsole.log(await m.answer());\n",
  );
  writeFileSync(join(dir, 'dist', 'x-bundle', 'x.cjs'), body);
  return { dir, bundleDir: join(dir, 'dist', 'x-bundle'), cacheDir: join(dir, 'dist', 'x-bundle', '.v8') };
}

// strict mode, __filename and a dynamic import from inside the bundle (routed as the build routes
// the real bundles' import() calls: scripts/lib/bundle.mjs routeDynamicImports)
const BODY = `function add(a, b) { return a + b; }
exports.answer = async () => { const os = await __mcpgaugeImport('node:os'); let strict = false; try { undeclared = 1; } catch { strict = true; } return JSON.stringify({ sum: add(40, 2), eol: os.EOL === '\\n', file: __filename.endsWith('x.cjs'), strict }); };
`;
const ANSWER = JSON.stringify({ sum: 42, eol: true, file: true, strict: true });

async function start(dir: string, env: Record<string, string> = {}, args: string[] = []): Promise<{ out: string; status: string }> {
  const trace = join(dir, 'trace.txt');
  rmSync(trace, { force: true });
  const r = await run(process.execPath, [join(dir, 'bin', 'main.mjs'), ...args], {
    env: { ...process.env, ...env, MCPGAUGE_TRACE_LOADS: trace },
  });
  const line = readFileSync(trace, 'utf8').trim();
  assert.match(line, /^file:\/\/.*\/dist\/x-bundle\/x\.cjs#cache=/);
  return { out: r.stdout.trim(), status: line.slice(line.indexOf('#cache=') + 7) };
}

const bins = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.bin')) : []);

describe("the light bundles' compile cache", { concurrency: true }, () => {
  it('a first start compiles and writes the cache at exit; the next start uses it; both run the same code', async () => {
    const t = tree('hit', BODY);
    const first = await start(t.dir);
    assert.deepEqual(first, { out: ANSWER, status: 'miss' });
    const files = bins(t.cacheDir);
    assert.equal(files.length, 1, files.join(' '));
    assert.match(files[0], new RegExp(`^x-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.bin$`));
    const bytes = readFileSync(join(t.cacheDir, files[0]));
    assert.deepEqual(await start(t.dir), { out: ANSWER, status: 'hit' });
    assert.deepEqual(readFileSync(join(t.cacheDir, files[0])), bytes, 'a hit leaves the cache as it was');
    assert.deepEqual(
      readdirSync(t.cacheDir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it('a run that asks only for help or the version writes no cache; the next real run does', async () => {
    const t = tree('info', BODY);
    for (const args of [['bench', '--help'], ['-V'], ['comply', '-h'], ['proxy', '--version']]) {
      assert.deepEqual(await start(t.dir, {}, args), { out: ANSWER, status: 'miss' }, args.join(' '));
      assert.deepEqual(bins(t.cacheDir), [], `${args.join(' ')} wrote a cache`);
    }
    // what follows -- is the command line of a server, not ours
    assert.deepEqual(await start(t.dir, {}, ['comply', '--', 'node', 'server.js', '--help']), { out: ANSWER, status: 'miss' });
    assert.equal(bins(t.cacheDir).length, 1, 'a real run writes it');
    assert.deepEqual(await start(t.dir, {}, ['bench', '--help']), { out: ANSWER, status: 'hit' }, 'and a help run then uses it');
  });

  it('a corrupt cache is rejected by V8, the bundle still runs, and the cache is written anew', async () => {
    const t = tree('corrupt', BODY);
    await start(t.dir);
    const [file] = bins(t.cacheDir);
    writeFileSync(join(t.cacheDir, file), Buffer.alloc(4096, 7));
    assert.deepEqual(await start(t.dir), { out: ANSWER, status: 'rejected' });
    assert.notDeepEqual(readFileSync(join(t.cacheDir, file)), Buffer.alloc(4096, 7));
    assert.equal((await start(t.dir)).status, 'hit');
  });

  it('a rebuilt bundle gets a cache of its own and the old one is removed', async () => {
    const t = tree('rebuilt', BODY);
    await start(t.dir);
    const [old] = bins(t.cacheDir);
    // same length, other content: V8's own check (the source length) would not tell them apart
    writeFileSync(join(t.bundleDir, 'x.cjs'), BODY.replace('a + b', 'b + a'));
    assert.deepEqual(await start(t.dir), { out: ANSWER, status: 'miss' });
    const now = bins(t.cacheDir);
    assert.equal(now.length, 1, now.join(' '));
    assert.notEqual(now[0], old);
  });

  it('the built light bundles send every import() through the loader (a cached vm script loses its own import callback)', () => {
    for (const f of ['fixture-bundle/fixture.cjs', 'proxy-bundle/proxy.cjs', 'comply-bundle/comply.cjs', 'bench-bundle/bench.cjs']) {
      const src = readFileSync(join(REPO_ROOT, 'dist', f), 'utf8');
      const calls = [...src.matchAll(/(?<![\w$.])import\(/g)].map((m) => m.index);
      // the one left is the fallback for node's own CommonJS loader, on the first line
      assert.ok(src.startsWith('var __mcpgaugeImport = __mcpgaugeImport || ((s) => import(s));\n'), f);
      assert.deepEqual(calls, [src.indexOf('import(s)')], f);
      assert.ok(src.includes('__mcpgaugeImport('), f);
    }
  });

  it('the real fixture from its cache: a ToolRet catalog loads hyparquet through the routed import()', async () => {
    const corpus = join(root, 'toolret');
    writeToolRetFixture(corpus);
    const trace = join(root, 'fixture-trace.txt');
    const msgs = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    ];
    for (let i = 0; i < 2; i++) {
      const out = await new Promise<string>((resolve, reject) => {
        const c = execFile(
          process.execPath,
          [join(REPO_ROOT, 'bin', 'mcpfixture.mjs'), '--transport', 'stdio', '--catalog-from', corpus],
          { env: { ...process.env, MCPGAUGE_TRACE_LOADS: trace }, timeout: 60_000 },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}: ${stderr.slice(-400)}`)) : resolve(stdout)),
        );
        c.stdin!.end(`${msgs.map((m) => JSON.stringify(m)).join('\n')}\n`);
      });
      assert.match(out, /"name":"weather_get"/, `run ${i + 1}: the ToolRet tools are served`);
    }
    const lines = readFileSync(trace, 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
    // the first start wrote the cache if it was missing; the second ran from it
    assert.match(lines[1], /\/dist\/fixture-bundle\/fixture\.cjs#cache=hit$/);
  });

  it('MCPGAUGE_COMPILE_CACHE=off: no cache read or written', async () => {
    const t = tree('off', BODY);
    assert.deepEqual(await start(t.dir, { MCPGAUGE_COMPILE_CACHE: 'off' }), { out: ANSWER, status: 'off' });
    assert.equal(existsSync(t.cacheDir), false);
  });

  it('a cache folder that cannot be made: the bundle runs uncached, nothing thrown', async () => {
    const t = tree('unwritable', BODY);
    writeFileSync(t.cacheDir, 'a file where the folder would be');
    assert.deepEqual(await start(t.dir), { out: ANSWER, status: 'miss' });
    assert.deepEqual(await start(t.dir), { out: ANSWER, status: 'miss' });
    assert.equal(readFileSync(t.cacheDir, 'utf8'), 'a file where the folder would be');
  });
});
