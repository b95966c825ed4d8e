/**
 * `corpus fetch`: LiveMCPTool and ToolRet at pinned revisions into the git-ignored cache
 * (.cache/corpora/<dataset>/), from the Hugging Face Hub or from an offline mirror folder.
 *
 * Cache layout (the loaders read it as-is):
 *   .cache/corpora/livemcptool/tools.json        upstream marketplace array or the flattened mirror form
 *   .cache/corpora/livemcptool/FETCH.json        revision, sha256 and size of what was cached
 *   .cache/corpora/toolret/{tools,queries}/<config>/<shard>.parquet, FETCH.json
 * Mirror layout (--from DIR): DIR/livemcptool/tools.json (+ ATTRIBUTION.md), DIR/toolret/{tools,queries}/...
 *
 * Everything is validated with the loaders before it replaces the cache, so a broken download
 * never lands there. The Hub base URL honours HF_ENDPOINT (as huggingface_hub does).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../types.ts';
import { assertInputFile, listFilesSorted, publishDir, writeFileAtomic } from '../util/fs.ts';
import { CACHE_ROOT } from '../constants.ts';
import {
  LIVEMCPTOOL_REPO,
  LIVEMCPTOOL_REVISION,
  isMarketplaceShape,
  loadLiveMcpToolFlat,
  loadLiveMcpToolMarketplace,
} from './livemcptool.ts';
import { MANIFEST_NAME, readManifest, type FetchManifest, type FetchPart, type FetchedFile } from './manifest.ts';
import { parseJsonText, isPlainObject } from './record.ts';
import {
  TOOLRET_QUERIES_REPO,
  TOOLRET_QUERIES_REVISION,
  TOOLRET_TOOLS_REPO,
  TOOLRET_TOOLS_REVISION,
  loadToolRet,
  resolveToolRetDir,
} from './toolret.ts';

export const DATASET_NAMES = ['livemcptool', 'toolret'] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];
export const DEFAULT_CACHE_DIR = join(CACHE_ROOT, 'corpora');
export const LIVEMCPTOOL_FILE = 'tools/tools.json';
/** sha256 of the normalized mirror copy (../shared/datasets/livemcptool/tools.json, ATTRIBUTION.md) */
export const LIVEMCPTOOL_MIRROR_SHA256 = '09462a7b2fc54749b82a5d917cf4a59cd22760c844f4e64647c93381731611a9';

export interface FetchOptions {
  /** default: <repo>/.cache/corpora */
  cacheDir?: string;
  /** offline mirror folder instead of the network */
  from?: string;
  /** default: all; datasets named here that a mirror lacks are an error, otherwise skipped */
  datasets?: DatasetName[];
  /** connect / idle timeout per request (default 20 s) */
  timeoutMs?: number;
  /** Hub base URL (default: $HF_ENDPOINT or https://huggingface.co) */
  endpoint?: string;
  log?: (line: string) => void;
}

export interface FetchOutcome {
  dataset: DatasetName;
  status: 'fetched' | 'skipped';
  /** one-line summary (what was cached, or why skipped) */
  message: string;
  dir: string;
  manifest?: FetchManifest;
}

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

// ------------------------------------------------------------------ network

class NetworkError extends UserError {}

function netError(url: string, e: unknown, endpoint: string): UserError {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const why =
    err.name === 'TimeoutError' || err.name === 'AbortError' ? 'timed out' : (err.cause?.code ?? err.cause?.message ?? err.message);
  return new NetworkError(
    `cannot reach ${endpoint} (${why} for ${url}): no network and no mirror; pass --from DIR with an offline mirror (DIR/livemcptool/tools.json, DIR/toolret/{tools,queries}/)`,
  );
}

/** GET with a connect timeout and an idle timeout while the body streams; returns the response. */
async function get(url: string, timeoutMs: number, endpoint: string): Promise<{ res: Response; ctl: AbortController }> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { signal: ctl.signal, redirect: 'follow', headers: { 'user-agent': 'mcpgauge-corpus-fetch' } });
  } catch (e) {
    throw netError(url, ctl.signal.aborted ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : e, endpoint);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    ctl.abort();
    throw new UserError(`${url}: HTTP ${res.status} ${res.statusText}`);
  }
  return { res, ctl };
}

/** Stream a URL into a file, hashing as it goes; idle timeout resets on every chunk. */
async function download(url: string, dest: string, timeoutMs: number, endpoint: string): Promise<{ bytes: number; sha256: string }> {
  const { res, ctl } = await get(url, timeoutMs, endpoint);
  mkdirSync(dirname(dest), { recursive: true });
  const hash = createHash('sha256');
  const out = createWriteStream(dest);
  let bytes = 0;
  let idle = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    if (!res.body) throw new UserError(`${url}: empty response body`);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      clearTimeout(idle);
      idle = setTimeout(() => ctl.abort(), timeoutMs);
      hash.update(value);
      bytes += value.byteLength;
      if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  } catch (e) {
    out.destroy();
    if (e instanceof UserError) throw e;
    throw netError(url, ctl.signal.aborted ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : e, endpoint);
  } finally {
    clearTimeout(idle);
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
  return { bytes, sha256: hash.digest('hex') };
}

interface HubEntry {
  type: string;
  path: string;
  size?: number;
  lfs?: { oid?: string; sha256?: string; size?: number };
}

/** Recursive file listing of a dataset repo at a revision (follows Link: rel="next" pages). */
async function hubTree(endpoint: string, repo: string, rev: string, timeoutMs: number): Promise<HubEntry[]> {
  let url: string | undefined = `${endpoint}/api/datasets/${repo}/tree/${rev}?recursive=true`;
  const out: HubEntry[] = [];
  for (let page = 0; url && page < 1000; page++) {
    const { res } = await get(url, timeoutMs, endpoint);
    const text = await res.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new UserError(`${url}: listing is not JSON`);
    }
    if (!Array.isArray(data)) throw new UserError(`${url}: listing is not an array`);
    out.push(...(data as HubEntry[]));
    const link = res.headers.get('link');
    const m = link ? /<([^>]+)>;\s*rel="next"/.exec(link) : null;
    url = m ? new URL(m[1], endpoint).href : undefined;
  }
  return out;
}

const resolveUrl = (endpoint: string, repo: string, rev: string, path: string) =>
  `${endpoint}/datasets/${repo}/resolve/${rev}/${path.split('/').map(encodeURIComponent).join('/')}`;

// ------------------------------------------------------------------ datasets

function summarizeLive(file: string, revision: string): { summary: Record<string, number | string>; shape: string } {
  const data = parseJsonText(readFileSync(file, 'utf8'), file);
  if (isMarketplaceShape(data)) {
    const { corpus, info } = loadLiveMcpToolMarketplace(file, data, { revision });
    return {
      shape: 'marketplace',
      summary: {
        shape: 'marketplace',
        tools: corpus.tools.length,
        servers: new Set(corpus.tools.map((t) => t.server)).size,
        duplicate_rows_collapsed: info.duplicate_rows_collapsed,
        entries_without_tools: info.entries_without_tools,
      },
    };
  }
  const corpus = loadLiveMcpToolFlat(file, data);
  const rev = isPlainObject(data) && isPlainObject(data.source) ? data.source.revision : undefined;
  if (typeof rev === 'string' && rev !== revision)
    throw new UserError(`${file}: $.source.revision: mirror holds revision ${rev}, expected the pinned ${revision}`);
  return {
    shape: 'flattened',
    summary: { shape: 'flattened', tools: corpus.tools.length, servers: new Set(corpus.tools.map((t) => t.server)).size },
  };
}

async function fetchLiveMcpTool(
  o: Required<Pick<FetchOptions, 'cacheDir' | 'timeoutMs' | 'endpoint'>> & { from?: string; explicit: boolean },
): Promise<FetchOutcome> {
  const dest = join(o.cacheDir, 'livemcptool');
  const staging = `${dest}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    let source: FetchManifest['source'];
    let origin: string;
    if (o.from) {
      const src = join(o.from, 'livemcptool', 'tools.json');
      if (!existsSync(src)) {
        if (o.explicit) throw new UserError(`${src}: not in the mirror (expected DIR/livemcptool/tools.json)`);
        return { dataset: 'livemcptool', status: 'skipped', message: `livemcptool: skipped, not in mirror (${src} missing)`, dir: dest };
      }
      assertInputFile(src, 'a JSON file'); // a FIFO or an oversized file in the mirror: one line, never copied
      copyFileSync(src, join(staging, 'tools.json'));
      const attr = join(o.from, 'livemcptool', 'ATTRIBUTION.md');
      if (existsSync(attr)) copyFileSync(attr, join(staging, 'ATTRIBUTION.md'));
      source = 'mirror';
      origin = resolve(o.from);
    } else {
      await download(
        resolveUrl(o.endpoint, LIVEMCPTOOL_REPO, LIVEMCPTOOL_REVISION, LIVEMCPTOOL_FILE),
        join(staging, 'tools.json'),
        o.timeoutMs,
        o.endpoint,
      );
      source = 'network';
      origin = o.endpoint;
    }
    const file = join(staging, 'tools.json');
    const sha = sha256File(file);
    const bytes = statSync(file).size;
    const { summary } = summarizeLive(file, LIVEMCPTOOL_REVISION);
    if (sha === LIVEMCPTOOL_MIRROR_SHA256) summary.digest_note = 'matches the known normalized mirror digest';
    const part: FetchPart = {
      repo: LIVEMCPTOOL_REPO,
      revision: LIVEMCPTOOL_REVISION,
      files: [{ path: 'tools.json', upstream_path: LIVEMCPTOOL_FILE, bytes, sha256: sha }],
    };
    const manifest: FetchManifest = {
      dataset: 'livemcptool',
      source,
      origin,
      fetched_at: new Date().toISOString(),
      parts: [part],
      summary,
    };
    writeFileAtomic(join(staging, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n');
    publishDir(staging, dest);
    return {
      dataset: 'livemcptool',
      status: 'fetched',
      message: `livemcptool: cached ${relative(process.cwd(), join(dest, 'tools.json')) || dest} (${summary.tools} tools, ${summary.servers} servers, ${bytes} bytes, sha256 ${sha.slice(0, 16)}..., revision ${LIVEMCPTOOL_REVISION.slice(0, 8)}, from ${source === 'mirror' ? origin : 'the Hub'})`,
      dir: dest,
      manifest,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function fetchToolRet(
  o: Required<Pick<FetchOptions, 'cacheDir' | 'timeoutMs' | 'endpoint'>> & { from?: string; explicit: boolean },
): Promise<FetchOutcome> {
  const dest = join(o.cacheDir, 'toolret');
  const staging = `${dest}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const repos = [
    { sub: 'tools', repo: TOOLRET_TOOLS_REPO, rev: TOOLRET_TOOLS_REVISION },
    { sub: 'queries', repo: TOOLRET_QUERIES_REPO, rev: TOOLRET_QUERIES_REVISION },
  ];
  try {
    let source: FetchManifest['source'];
    let origin: string;
    const parts: FetchPart[] = [];
    const notes: string[] = [];
    if (o.from) {
      const base = join(o.from, 'toolret');
      if (!existsSync(base)) {
        if (o.explicit)
          throw new UserError(`${base}: not in the mirror (expected DIR/toolret/tools/ and DIR/toolret/queries/ parquet shards)`);
        return { dataset: 'toolret', status: 'skipped', message: `toolret: skipped, not in mirror (${base} missing)`, dir: dest };
      }
      const root = resolveToolRetDir(base);
      const mirrorManifest = readManifest(root);
      for (const r of repos) {
        const files: FetchedFile[] = [];
        for (const f of listFilesSorted(join(root, r.sub)).filter((p) => p.endsWith('.parquet'))) {
          const rel = relative(join(root, r.sub), f).split(sep).join('/');
          const to = join(staging, r.sub, ...rel.split('/'));
          assertInputFile(f, 'a parquet file');
          mkdirSync(dirname(to), { recursive: true });
          copyFileSync(f, to);
          files.push({ path: `${r.sub}/${rel}`, upstream_path: rel, bytes: statSync(to).size, sha256: sha256File(to) });
        }
        const known = mirrorManifest?.parts.find((p) => p.repo === r.repo)?.revision;
        if (known && known !== r.rev)
          throw new UserError(`${join(root, MANIFEST_NAME)}: mirror holds ${r.repo}@${known}, expected the pinned ${r.rev}`);
        if (!known) notes.push(`${r.repo}: mirror has no FETCH.json, revision assumed to be the pinned one`);
        parts.push({ repo: r.repo, revision: r.rev, files });
      }
      source = 'mirror';
      origin = resolve(o.from);
    } else {
      for (const r of repos) {
        const entries = (await hubTree(o.endpoint, r.repo, r.rev, o.timeoutMs)).filter(
          (e) => e.type === 'file' && e.path.endsWith('.parquet'),
        );
        if (entries.length === 0) throw new UserError(`${o.endpoint}/api/datasets/${r.repo}/tree/${r.rev}: no parquet shards listed`);
        const files: FetchedFile[] = [];
        for (const e of entries.sort((a, b) => (a.path < b.path ? -1 : 1))) {
          const to = join(staging, r.sub, ...e.path.split('/'));
          const got = await download(resolveUrl(o.endpoint, r.repo, r.rev, e.path), to, o.timeoutMs, o.endpoint);
          const want = e.lfs?.sha256 ?? e.lfs?.oid;
          if (want && /^[0-9a-f]{64}$/.test(want) && want !== got.sha256)
            throw new UserError(`${r.repo}@${r.rev.slice(0, 8)} ${e.path}: sha256 ${got.sha256} does not match the Hub's ${want}`);
          files.push({ path: `${r.sub}/${e.path}`, upstream_path: e.path, bytes: got.bytes, sha256: got.sha256 });
        }
        parts.push({ repo: r.repo, revision: r.rev, files });
      }
      source = 'network';
      origin = o.endpoint;
    }
    // write the manifest first so the loader sees the revisions, then validate, then publish
    const manifest: FetchManifest = { dataset: 'toolret', source, origin, fetched_at: new Date().toISOString(), parts, summary: {} };
    writeFileAtomic(join(staging, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n');
    const loaded = await loadToolRet(staging);
    manifest.summary = {
      tools: loaded.corpus.tools.length,
      queries: loaded.golden.queries.length,
      ...loaded.info,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    };
    writeFileAtomic(join(staging, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n');
    publishDir(staging, dest);
    const nfiles = parts.reduce((s, p) => s + p.files.length, 0);
    return {
      dataset: 'toolret',
      status: 'fetched',
      message: `toolret: cached ${relative(process.cwd(), dest) || dest} (${loaded.corpus.tools.length} tools, ${loaded.golden.queries.length} queries, ${nfiles} shards, tools@${TOOLRET_TOOLS_REVISION.slice(0, 8)} queries@${TOOLRET_QUERIES_REVISION.slice(0, 8)}, from ${source === 'mirror' ? origin : 'the Hub'})`,
      dir: dest,
      manifest,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export async function fetchCorpora(opts: FetchOptions = {}): Promise<FetchOutcome[]> {
  const log = opts.log ?? (() => {});
  const cacheDir = resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR);
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const endpoint = (opts.endpoint ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, '');
  const explicit = opts.datasets !== undefined;
  const datasets = opts.datasets ?? [...DATASET_NAMES];
  for (const d of datasets)
    if (!(DATASET_NAMES as readonly string[]).includes(d))
      throw new UserError(`unknown dataset ${JSON.stringify(d)} (expected ${DATASET_NAMES.join(', ')})`);
  if (opts.from !== undefined && (!existsSync(opts.from) || !statSync(opts.from).isDirectory()))
    throw new UserError(`--from ${opts.from}: mirror folder does not exist`);
  mkdirSync(cacheDir, { recursive: true });
  const out: FetchOutcome[] = [];
  for (const d of datasets) {
    const args = { cacheDir, timeoutMs, endpoint, from: opts.from, explicit };
    const r = d === 'livemcptool' ? await fetchLiveMcpTool(args) : await fetchToolRet(args);
    log(r.message);
    out.push(r);
  }
  if (!out.some((r) => r.status === 'fetched')) throw new UserError(`nothing fetched: ${out.map((r) => r.message).join('; ')}`);
  return out;
}
