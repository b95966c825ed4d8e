/**
 * Embeddings over HTTP from an endpoint the user runs, with a disk cache.
 *
 * Endpoint kind by URL path: `.../embeddings` (OpenAI-compatible, `/v1/embeddings`: body
 * {model, input: [texts]}, answer {data: [{index, embedding}]}) or `.../api/embed` (Ollama:
 * body {model, input: [texts]}, answer {embeddings: [[...]]}). The API key, if any, comes from
 * the environment variable EMBED_KEY_ENV and is sent as `Authorization: Bearer`; it is never
 * written anywhere (not in the cache, not in params, not in error messages).
 *
 * Texts are sent in batches of `batch`. Cache: one JSON-lines file per model under `cacheDir`
 * (default .cache/embeddings/), one line {"model", "sha256" (of the text), "vector"} per text;
 * a text already cached (same model, same sha256) is never sent again. The file is rewritten
 * whole through a temp file and a rename after each batch, so it is never half-written.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../types.ts';
import { CACHE_ROOT } from '../constants.ts';
import { writeFileAtomic } from '../util/fs.ts';

export const EMBED_KEY_ENV = 'MCPGAUGE_EMBED_API_KEY';
export const DEFAULT_EMBED_CACHE = join(CACHE_ROOT, 'embeddings');
export const DEFAULT_EMBED_BATCH = 64;
export const DEFAULT_EMBED_TIMEOUT_MS = 60_000;

export type EmbedApi = 'openai' | 'ollama';

export interface EmbedClientOptions {
  url: string;
  model: string;
  batch?: number;
  cacheDir?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface EmbedClient {
  api: EmbedApi;
  model: string;
  /** one vector per text, in order (cached ones from disk) */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** texts sent over HTTP and batches posted so far (for tests and the report) */
  stats(): { sent: number; requests: number; cached: number };
}

export function embedApiOf(url: string): EmbedApi {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(`--embed-url: not a URL: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UserError(`--embed-url: must be http(s), got ${u.protocol}`);
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/embed')) return 'ollama';
  if (path.endsWith('/embeddings')) return 'openai';
  throw new UserError(`--embed-url must end in /v1/embeddings (OpenAI-compatible) or /api/embed (Ollama), got ${u.origin}${u.pathname}`);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function vectorsOf(api: EmbedApi, body: unknown, n: number, where: string): number[][] {
  const b = body as { data?: { index?: number; embedding?: unknown }[]; embeddings?: unknown[] };
  let vs: unknown[];
  if (api === 'ollama') {
    if (!Array.isArray(b?.embeddings)) throw new UserError(`${where}: answer has no "embeddings" array`);
    vs = b.embeddings;
  } else {
    if (!Array.isArray(b?.data)) throw new UserError(`${where}: answer has no "data" array`);
    vs = [...b.data].sort((x, y) => (x.index ?? 0) - (y.index ?? 0)).map((d) => d.embedding);
  }
  if (vs.length !== n) throw new UserError(`${where}: asked for ${n} embeddings, got ${vs.length}`);
  for (const v of vs) {
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x)))
      throw new UserError(`${where}: an embedding is not a non-empty array of finite numbers`);
  }
  return vs as number[][];
}

export function createEmbedClient(opts: EmbedClientOptions): EmbedClient {
  const api = embedApiOf(opts.url);
  if (typeof opts.model !== 'string' || opts.model === '') throw new UserError('--embed-model is required with --embed-url');
  const batch = opts.batch ?? DEFAULT_EMBED_BATCH;
  if (!Number.isInteger(batch) || batch < 1) throw new UserError(`embed: batch must be an integer >= 1, got ${String(batch)}`);
  const key = (opts.env ?? process.env)[EMBED_KEY_ENV];
  const cacheFile = join(opts.cacheDir ?? DEFAULT_EMBED_CACHE, `${sha256(opts.model).slice(0, 16)}.jsonl`);
  const cache = new Map<string, Float32Array>();
  if (existsSync(cacheFile)) {
    for (const line of readFileSync(cacheFile, 'utf8').split('\n')) {
      try {
        const e = JSON.parse(line) as { model: string; sha256: string; vector: number[] };
        if (e.model === opts.model && typeof e.sha256 === 'string' && Array.isArray(e.vector))
          cache.set(e.sha256, Float32Array.from(e.vector));
      } catch {
        /* an unreadable line is re-embedded */
      }
    }
  }
  let sent = 0;
  let requests = 0;
  let cached = 0;

  async function post(texts: string[]): Promise<number[][]> {
    const where = `embeddings ${new URL(opts.url).origin}${new URL(opts.url).pathname} (model ${opts.model})`;
    let res: Response;
    try {
      res = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ model: opts.model, input: texts }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS),
      });
    } catch (e) {
      const c = (e as { cause?: { code?: string } }).cause?.code;
      throw new UserError(`${where}: cannot reach the endpoint (${c ?? (e as Error).message})`);
    }
    requests++;
    const text = await res.text();
    if (!res.ok) throw new UserError(`${where}: HTTP ${res.status}: ${text.slice(0, 200).replace(/\s+/g, ' ')}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UserError(`${where}: answer is not JSON: ${text.slice(0, 100).replace(/\s+/g, ' ')}`);
    }
    return vectorsOf(api, body, texts.length, where);
  }

  function save(): void {
    const lines: string[] = [];
    for (const [h, v] of cache) lines.push(JSON.stringify({ model: opts.model, sha256: h, vector: Array.from(v) }));
    writeFileAtomic(cacheFile, lines.join('\n') + '\n');
  }

  return {
    api,
    model: opts.model,
    async embed(texts) {
      const hashes = texts.map(sha256);
      const missing = [...new Set(hashes.filter((h) => !cache.has(h)))];
      cached += hashes.length - missing.length;
      const textOf = new Map(texts.map((t, i) => [hashes[i], t]));
      for (let i = 0; i < missing.length; i += batch) {
        const chunk = missing.slice(i, i + batch);
        const vs = await post(chunk.map((h) => textOf.get(h)!));
        sent += chunk.length;
        chunk.forEach((h, j) => cache.set(h, Float32Array.from(vs[j])));
        save();
      }
      return hashes.map((h) => cache.get(h)!);
    },
    stats: () => ({ sent, requests, cached }),
  };
}
