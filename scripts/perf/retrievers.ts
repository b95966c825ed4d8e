/**
 * bench-perf section "retrievers": per retriever, index build time, query latency p50/p99 and
 * peak RSS, on LiveMCPTool (527 tools: .cache/corpora/livemcptool after `make fetch FROM=dir`,
 * or the ../shared/datasets mirror; skipped with a reason when neither exists) and on
 * syntheticTools(50000). Each (corpus, retriever) runs in its own child process, so peak RSS is
 * that retriever's alone (the corpus and docs are in it too, identical for every retriever).
 * Docs come from the baseline_json arm's indexDoc(). Queries: 200, the first 6 words of a
 * seeded sample of tool descriptions (a latency workload, not a quality figure). Build: median
 * of 3 on 527 tools, one build on 50k. Every figure is printed next to its ratio against bm25f
 * in the same run. Goals (printed, never asserted): lexical retrievers within 3x bm25f query
 * p50; bm25f_expand keeps the 50k build under 60 s and 1.5 GB (the offline stage's envelope).
 * `embed`/`hybrid_embed` need an endpoint: listed as skipped unless MCPGAUGE_EMBED_URL and
 * MCPGAUGE_EMBED_MODEL are set. `embed_static`/`hybrid_static` need the static model (fetched on
 * first use like the bench does, else skipped): "load ms" is reading + checking + widening the
 * model and building its tokenizer (once per process), their build is the first one (later
 * builds reuse the vectors of unchanged texts, see "rebuild ms"). Without a LiveMCPTool file a
 * synthetic 527-tool corpus stands in. PERF_RETRIEVERS=a,b limits the subjects (bm25f always runs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { loadLiveMcpToolFlat } from '../../pipeline/corpus/livemcptool.ts';
import { baselineIndexDocs } from './lib/docs.ts';
import { percentile, seededRandom } from '../../pipeline/util/stats.ts';
import { createRetriever, retrieverIds } from '../../pipeline/retrieval/registry.ts';
import type { ToolRecord } from '../../pipeline/types.ts';
import { loadStaticModel } from '../../pipeline/models/static_model.ts';
import { ensureModel } from '../../pipeline/models/fetch.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const QUERIES = 200;
const BASE = 'bm25f';

/** the modes a retriever is timed in, when more than one (bm25f_expand: once per costly mode) */
const MODES: Record<string, [string, Record<string, unknown>][]> = {
  bm25f_expand: [
    ['query', { mode: 'query', senses: 3 }],
    ['docs', { mode: 'docs', senses: 3 }],
    ['both', { mode: 'both', senses: 3 }],
  ],
};
/** retrievers that need an embeddings endpoint (MCPGAUGE_EMBED_URL / MCPGAUGE_EMBED_MODEL) */
const ENDPOINT = new Set(['embed', 'hybrid_embed']);
/** retrievers on the static model: load time is measured apart, the build is the first (cold) one */
const STATIC = new Set(['embed_static', 'hybrid_static']);
/** Subjects: [label, registry id, options], one per registry entry (and mode): a new retriever is timed without a line here. */
const SUBJECTS: [string, string, Record<string, unknown>][] = retrieverIds().flatMap((id): [string, string, Record<string, unknown>][] =>
  MODES[id] ? MODES[id].map(([m, o]) => [`${id}(${m})`, id, o]) : [[id, id, {}]],
);
/** the lexical ones (goal: query p50 within 3x bm25f): every retriever without a model or an endpoint */
const LEXICAL = new Set(retrieverIds().filter((id) => !STATIC.has(id) && !ENDPOINT.has(id)));

function liveFile(): string | undefined {
  return [
    join(ROOT, '.cache', 'corpora', 'livemcptool', 'tools.json'),
    resolve(ROOT, '..', 'shared', 'datasets', 'livemcptool', 'tools.json'),
  ].find(existsSync);
}

function toolsFor(corpus: string): ToolRecord[] {
  if (corpus === 'livemcptool') {
    const f = liveFile()!;
    return loadLiveMcpToolFlat(f, JSON.parse(readFileSync(f, 'utf8'))).tools;
  }
  return syntheticTools(Number(corpus.split('-')[1]));
}

interface Row {
  load_ms: number;
  rebuild_ms: number;
  build_ms: number;
  p50_ms: number;
  p99_ms: number;
  peak_rss_mb: number;
  docs: number;
}

async function child(corpus: string, id: string, opts: Record<string, unknown>): Promise<Row> {
  const tools = toolsFor(corpus);
  const docs = baselineIndexDocs(tools);
  const l0 = performance.now();
  if (STATIC.has(id)) loadStaticModel();
  const load_ms = STATIC.has(id) ? performance.now() - l0 : 0;
  const r = createRetriever(id, opts);
  const builds: number[] = [];
  for (let i = 0; i < (STATIC.has(id) ? 2 : docs.length > 5000 ? 1 : 3); i++) {
    const t0 = performance.now();
    await r.build(docs);
    builds.push(performance.now() - t0);
  }
  const rnd = seededRandom(7);
  const qs = Array.from({ length: QUERIES }, () => {
    const t = tools[Math.floor(rnd() * tools.length)];
    return (t.description || t.tool).split(/\s+/).slice(0, 6).join(' ') || t.tool;
  });
  for (const q of qs.slice(0, 20)) await r.search(q, 10); // warm-up
  const lat: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    await r.search(q, 10);
    lat.push(performance.now() - t0);
  }
  return {
    load_ms,
    rebuild_ms: STATIC.has(id) ? builds[1] : 0,
    build_ms: STATIC.has(id) ? builds[0] : [...builds].sort((a, b) => a - b)[Math.floor(builds.length / 2)],
    p50_ms: percentile(lat, 50),
    p99_ms: percentile(lat, 99),
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    docs: docs.length,
  };
}

if (process.argv[2] === '--child') {
  const [, , , corpus, id, opts] = process.argv;
  console.log(JSON.stringify(await child(corpus, id, JSON.parse(opts))));
  process.exit(0);
}

const embedOpts = process.env.MCPGAUGE_EMBED_URL
  ? { url: process.env.MCPGAUGE_EMBED_URL, model: process.env.MCPGAUGE_EMBED_MODEL }
  : undefined;
const corpora: [string, string][] = [];
if (liveFile()) corpora.push(['livemcptool', `LiveMCPTool (${liveFile()})`]);
else {
  console.log(
    'LiveMCPTool: not found (no .cache/corpora/livemcptool/tools.json and no ../shared/datasets mirror; `make fetch FROM=dir`): syntheticTools(527) instead',
  );
  corpora.push(['synthetic-527', 'syntheticTools(527)']);
}
const model = await ensureModel({ log: (l) => console.log(l) });
corpora.push(['synthetic-50000', 'syntheticTools(50000)']);
const ratio = (x: number, base: number | undefined) => (base ? `${(x / base).toFixed(2)}x` : 'n/a');
const t0 = performance.now();
for (const [corpus, label] of corpora) {
  console.log(`\n${label}: per retriever (own child process each), ${QUERIES} queries k=10, ratios vs ${BASE} in this run`);
  console.log(
    '  retriever            load ms  build ms (ratio)        query p50 ms (ratio)   query p99 ms (ratio)   peak RSS MB (ratio)  goal',
  );
  let base: Row | undefined;
  // PERF_RETRIEVERS=bm25f,embed_static,...: only these subjects (bm25f, the peer, always runs)
  const only = process.env.PERF_RETRIEVERS?.split(',').map((x) => x.trim());
  for (const [name, id, opts] of SUBJECTS.filter(([n, i]) => !only || n === BASE || only.includes(n) || only.includes(i))) {
    if (ENDPOINT.has(id) && !embedOpts) {
      console.log(`  ${name.padEnd(20)} skipped: no --embed-url (set MCPGAUGE_EMBED_URL and MCPGAUGE_EMBED_MODEL)`);
      continue;
    }
    if (STATIC.has(id) && !model.ok) {
      console.log(`  ${name.padEnd(20)} skipped: model not available (mcpgauge models fetch): ${model.reason}`);
      continue;
    }
    const o = ENDPOINT.has(id) ? { ...opts, ...embedOpts } : opts;
    const res = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', corpus, id, JSON.stringify(o)], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (res.status !== 0) {
      console.log(`  ${name.padEnd(20)} failed (exit ${res.status}): ${(res.stderr || '').trim().split('\n').pop()}`);
      continue;
    }
    const row = JSON.parse(res.stdout.trim().split('\n').pop()!) as Row;
    if (name === BASE) base = row;
    const goals: string[] = [];
    if (LEXICAL.has(id) && base) goals.push(row.p50_ms <= 3 * base.p50_ms ? 'p50 within 3x' : 'p50 OVER 3x');
    if (STATIC.has(id)) goals.push(`rebuild, nothing changed: ${row.rebuild_ms.toFixed(0)} ms`);
    if (id === 'bm25f_expand' && corpus === 'synthetic-50000')
      goals.push(row.build_ms <= 60_000 && row.peak_rss_mb <= 1536 ? 'build within 60 s / 1.5 GB' : 'build OVER 60 s / 1.5 GB');
    const cell = (v: number, b: number | undefined, d: number) => `${v.toFixed(d)} (${ratio(v, b)})`.padEnd(23);
    console.log(
      `  ${name.padEnd(20)} ${row.load_ms.toFixed(0).padStart(7)}  ${cell(row.build_ms, base?.build_ms, 0)} ${cell(row.p50_ms, base?.p50_ms, 3)} ${cell(row.p99_ms, base?.p99_ms, 3)} ${cell(row.peak_rss_mb, base?.peak_rss_mb, 0)} ${goals.join('; ')}`,
    );
  }
}
console.log(`\nsection wall time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
