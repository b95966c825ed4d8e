import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { fetchCorpora } from '../../pipeline/corpus/fetch.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { loadToolRet } from '../../pipeline/corpus/toolret.ts';
import { LIVEMCPTOOL_REVISION } from '../../pipeline/corpus/livemcptool.ts';
import { TOOLRET_QUERIES_REVISION, TOOLRET_TOOLS_REVISION } from '../../pipeline/corpus/toolret.ts';
import type { FetchManifest } from '../../pipeline/corpus/manifest.ts';
import { UserError } from '../../pipeline/types.ts';
import { liveFlat, liveMarketplace, tempDir, writeJson, writeToolRetFixture } from './helpers.ts';

const tmp = tempDir();
const servers: Array<Server | TcpServer> = [];
const sockets: Socket[] = [];
after(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined)))));
  tmp.cleanup();
});

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'FETCH.json'), 'utf8')) as FetchManifest;

function oneLineUserError(re: RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof UserError, `expected UserError, got ${(e as Error)?.message}`);
    assert.ok(!e.message.includes('\n'), e.message);
    assert.match(e.message, re);
    return true;
  };
}

test('fetch --from a mirror caches both datasets with revision and sha256; loaders read the cache', async () => {
  const mirror = join(tmp.dir, 'mirror');
  writeJson(join(mirror, 'livemcptool', 'tools.json'), liveFlat());
  writeJson(join(mirror, 'livemcptool', 'ATTRIBUTION.md'), '# attribution\n');
  writeToolRetFixture(join(mirror, 'toolret'));
  const cache = join(tmp.dir, 'cache1');
  const lines: string[] = [];
  const out = await fetchCorpora({ from: mirror, cacheDir: cache, log: (l) => lines.push(l) });
  assert.deepEqual(
    out.map((o) => [o.dataset, o.status]),
    [
      ['livemcptool', 'fetched'],
      ['toolret', 'fetched'],
    ],
  );
  assert.match(
    lines[0],
    /^livemcptool: cached .*tools\.json \(3 tools, 2 servers, \d+ bytes, sha256 [0-9a-f]{16}\.\.\., revision ddea2d24, from .*mirror\)$/,
  );
  assert.match(lines[1], /^toolret: cached .* \(4 tools, 3 queries, 4 shards, tools@e06c38c7 queries@b8c76ad3, from .*mirror\)$/);

  const lm = manifest(join(cache, 'livemcptool'));
  assert.equal(lm.source, 'mirror');
  assert.equal(lm.parts[0].revision, LIVEMCPTOOL_REVISION);
  assert.equal(lm.parts[0].files[0].sha256, sha(join(cache, 'livemcptool', 'tools.json')));
  assert.equal(lm.parts[0].files[0].sha256, sha(join(mirror, 'livemcptool', 'tools.json')));
  assert.equal(lm.parts[0].files[0].bytes, statSync(join(mirror, 'livemcptool', 'tools.json')).size);
  assert.ok(existsSync(join(cache, 'livemcptool', 'ATTRIBUTION.md')));
  const c = await loadCorpus(join(cache, 'livemcptool', 'tools.json'));
  assert.equal(c.tools.length, 3);
  assert.equal(c.committed, false);

  const tm = manifest(join(cache, 'toolret'));
  assert.deepEqual(
    tm.parts.map((p) => [p.repo, p.revision, p.files.length]),
    [
      ['mangopy/ToolRet-Tools', TOOLRET_TOOLS_REVISION, 2],
      ['mangopy/ToolRet-Queries', TOOLRET_QUERIES_REVISION, 2],
    ],
  );
  for (const p of tm.parts) for (const f of p.files) assert.equal(f.sha256, sha(join(cache, 'toolret', f.path)));
  assert.match(String(tm.summary.note), /revision assumed to be the pinned one/);
  const tr = await loadToolRet(join(cache, 'toolret'));
  assert.equal(tr.corpus.version, 'toolret@e06c38c7');
  assert.equal(tr.golden.queries.length, 3);
  assert.deepEqual(readdirSync(cache).sort(), ['livemcptool', 'toolret'], 'no staging folders left');

  // a broken mirror never replaces a good cache
  const bad = join(tmp.dir, 'mirror-bad');
  writeJson(join(bad, 'livemcptool', 'tools.json'), liveFlat({ tool_count: 99 }));
  await assert.rejects(fetchCorpora({ from: bad, cacheDir: cache }), oneLineUserError(/\$\.tool_count: header says 99 tools, rows have 3/));
  const wrongRev = join(tmp.dir, 'mirror-rev');
  writeJson(join(wrongRev, 'livemcptool', 'tools.json'), liveFlat({ source: { revision: 'ffffffffffffffffffffffffffffffffffffffff' } }));
  await assert.rejects(
    fetchCorpora({ from: wrongRev, cacheDir: cache }),
    oneLineUserError(/\$\.source\.revision: mirror holds revision ffffffff+, expected the pinned ddea2d24/),
  );
  assert.equal(manifest(join(cache, 'livemcptool')).parts[0].files[0].sha256, lm.parts[0].files[0].sha256);
  assert.deepEqual(readdirSync(cache).sort(), ['livemcptool', 'toolret']);
});

test('fetch --from a mirror without toolret: skipped by default, an error when asked for', async () => {
  const mirror = join(tmp.dir, 'mirror-live-only');
  writeJson(join(mirror, 'livemcptool', 'tools.json'), liveMarketplace());
  const cache = join(tmp.dir, 'cache2');
  const out = await fetchCorpora({ from: mirror, cacheDir: cache });
  assert.deepEqual(
    out.map((o) => o.status),
    ['fetched', 'skipped'],
  );
  assert.match(out[1].message, /^toolret: skipped, not in mirror/);
  assert.equal(manifest(join(cache, 'livemcptool')).summary.shape, 'marketplace');
  const c = await loadCorpus(join(cache, 'livemcptool', 'tools.json'));
  assert.equal(c.version, 'livemcptool@ddea2d24', 'marketplace version comes from FETCH.json');
  await assert.rejects(
    fetchCorpora({ from: mirror, cacheDir: cache, datasets: ['toolret'] }),
    oneLineUserError(/mirror-live-only\/toolret: not in the mirror/),
  );
  await assert.rejects(
    fetchCorpora({ from: join(tmp.dir, 'nope'), cacheDir: cache }),
    oneLineUserError(/--from .*nope: mirror folder does not exist/),
  );
  await assert.rejects(
    fetchCorpora({ from: join(tmp.dir, 'cache2', 'livemcptool'), cacheDir: cache }),
    oneLineUserError(/^nothing fetched: livemcptool: skipped/),
  );
});

test('fetch without network and without a mirror says so in one line (unreachable endpoint, short timeout)', async () => {
  // a closed loopback port: connection refused, like a machine without network
  const closed = createTcpServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  const port = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  const cache = join(tmp.dir, 'cache3');
  // ECONNREFUSED in the message shows the refusal (not the 1.5 s timeout) ended it; no wall-clock assert
  await assert.rejects(
    fetchCorpora({ cacheDir: cache, endpoint: `http://127.0.0.1:${port}`, timeoutMs: 1500 }),
    oneLineUserError(
      /^cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED for .*\/datasets\/ICIP\/LiveMCPBench\/resolve\/ddea2d24196638bc4026c4cb891f679d0357bfd0\/tools\/tools\.json\): no network and no mirror; pass --from DIR/,
    ),
  );
  // a server that accepts and never answers: the timeout fires
  const silent = createTcpServer((s) => sockets.push(s));
  servers.push(silent);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  const sport = (silent.address() as { port: number }).port;
  await assert.rejects(
    fetchCorpora({ cacheDir: cache, endpoint: `http://127.0.0.1:${sport}`, timeoutMs: 500 }),
    oneLineUserError(/cannot reach .* \(timed out for /),
  );
  assert.deepEqual(readdirSync(cache), [], 'nothing half-written');
});

test('fetch from a Hub-shaped loopback server: downloads at the pinned revisions, checks LFS sha256', async () => {
  // Stand-in for huggingface.co (no network here): serves the resolve and tree endpoints the fetcher uses.
  const src = writeToolRetFixture(join(tmp.dir, 'hubsrc'));
  const files: Record<string, Buffer> = {
    [`/datasets/ICIP/LiveMCPBench/resolve/${LIVEMCPTOOL_REVISION}/tools/tools.json`]: Buffer.from(JSON.stringify(liveMarketplace())),
  };
  const trees: Record<string, unknown[]> = {};
  let corruptOne = false;
  for (const [sub, repo, rev] of [
    ['tools', 'mangopy/ToolRet-Tools', TOOLRET_TOOLS_REVISION],
    ['queries', 'mangopy/ToolRet-Queries', TOOLRET_QUERIES_REVISION],
  ] as const) {
    const entries: unknown[] = [{ type: 'file', path: 'README.md', size: 3 }];
    for (const cfg of readdirSync(join(src, sub))) {
      for (const f of readdirSync(join(src, sub, cfg))) {
        const bytes = readFileSync(join(src, sub, cfg, f));
        const path = `${cfg}/${f}`;
        files[`/datasets/${repo}/resolve/${rev}/${path}`] = bytes;
        entries.push(
          { type: 'directory', path: cfg },
          { type: 'file', path, size: bytes.length, lfs: { oid: createHash('sha256').update(bytes).digest('hex'), size: bytes.length } },
        );
      }
    }
    trees[`/api/datasets/${repo}/tree/${rev}`] = entries;
  }
  const requests: string[] = [];
  const hub = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    if (trees[url.pathname] && url.searchParams.get('recursive') === 'true') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(trees[url.pathname]));
      return;
    }
    const body = files[url.pathname];
    if (!body) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.end(corruptOne && url.pathname.endsWith('.parquet') ? Buffer.concat([body, Buffer.from('x')]) : body);
  });
  servers.push(hub);
  await new Promise<void>((r) => hub.listen(0, '127.0.0.1', () => r()));
  const endpoint = `http://127.0.0.1:${(hub.address() as { port: number }).port}`;
  const cache = join(tmp.dir, 'cache4');
  const out = await fetchCorpora({ cacheDir: cache, endpoint, timeoutMs: 5000 });
  assert.deepEqual(
    out.map((o) => o.status),
    ['fetched', 'fetched'],
  );
  const lm = manifest(join(cache, 'livemcptool'));
  assert.equal(lm.source, 'network');
  assert.equal(
    lm.parts[0].files[0].sha256,
    createHash('sha256').update(files[`/datasets/ICIP/LiveMCPBench/resolve/${LIVEMCPTOOL_REVISION}/tools/tools.json`]).digest('hex'),
  );
  assert.equal((await loadCorpus(join(cache, 'livemcptool', 'tools.json'))).tools.length, 3);
  const tr = await loadToolRet(join(cache, 'toolret'));
  assert.equal(tr.corpus.tools.length, 4);
  assert.ok(!requests.some((p) => p.endsWith('README.md')), 'only parquet shards are downloaded');
  assert.ok(
    requests.every((p) => p.includes(LIVEMCPTOOL_REVISION) || p.includes(TOOLRET_TOOLS_REVISION) || p.includes(TOOLRET_QUERIES_REVISION)),
    'every request is pinned',
  );

  corruptOne = true;
  await assert.rejects(
    fetchCorpora({ cacheDir: cache, endpoint, datasets: ['toolret'], timeoutMs: 5000 }),
    oneLineUserError(/mangopy\/ToolRet-Tools@e06c38c7 apibank\/train-00000\.parquet: sha256 [0-9a-f]+ does not match the Hub's [0-9a-f]+/),
  );
  assert.equal((await loadToolRet(join(cache, 'toolret'))).corpus.tools.length, 4, 'previous cache kept');
  delete files[`/datasets/ICIP/LiveMCPBench/resolve/${LIVEMCPTOOL_REVISION}/tools/tools.json`];
  await assert.rejects(
    fetchCorpora({ cacheDir: cache, endpoint, datasets: ['livemcptool'], timeoutMs: 5000 }),
    oneLineUserError(/tools\/tools\.json: HTTP 404/),
  );
});
