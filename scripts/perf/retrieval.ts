/**
 * bench-perf section "retrieval": BM25F index build and search on the LiveMCPTool corpus
 * (../shared/datasets/livemcptool/tools.json, 527 tools; syntheticTools(527) when absent) and on
 * syntheticTools(50000). Index docs come from the baseline_json arm's indexDoc().
 *
 * Printed per corpus: build wall time (median of 3), docs/s, vocabulary and postings, process
 * peak RSS after the stage, search latency p50/p95 over 200 queries (each the first 6 words of
 * a seeded sample of tool descriptions), and the speedup of the inverted index over a peer
 * measured in the same run: a forward scan that scores every doc from per-doc term maps
 * holding the same precomputed tf~ (same formula, no inverted index). Printed, not asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { loadLiveMcpToolFlat } from '../../pipeline/corpus/livemcptool.ts';
import { createBm25Retriever, DEFAULT_BM25_PARAMS, FIELD_NAMES } from '../../pipeline/retrieval/bm25f.ts';
import { analyze, analyzeJoined, analyzeParts } from '../../pipeline/retrieval/analyzer.ts';
import { baselineIndexDocs } from './lib/docs.ts';
import { percentile, seededRandom } from '../../pipeline/util/stats.ts';
import type { IndexDoc, ToolRecord } from '../../pipeline/types.ts';

const LIVE = fileURLToPath(new URL('../../../shared/datasets/livemcptool/tools.json', import.meta.url));
const QUERIES = 200;

function queriesFor(tools: ToolRecord[]): string[] {
  const rnd = seededRandom(7);
  const out: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = tools[Math.floor(rnd() * tools.length)];
    const q = (t.description || t.tool).split(/\s+/).slice(0, 6).join(' ');
    out.push(q || t.tool);
  }
  return out;
}

/** Peer: forward scan over per-doc maps term -> tf~ (same formula, same params). */
function forwardScanPeer(docs: IndexDoc[]) {
  const p = DEFAULT_BM25_PARAMS;
  const toks = docs.map((d) => [
    analyzeJoined(d.name),
    analyzeParts(d.name),
    analyze(d.server),
    analyze(d.description),
    analyze(d.params, 'params'),
  ]);
  const avg = FIELD_NAMES.map((_, f) => toks.reduce((s, t) => s + t[f].length, 0) / docs.length);
  const df = new Map<string, number>();
  const fwd = toks.map((ft) => {
    const m = new Map<string, number>();
    FIELD_NAMES.forEach((f, fi) => {
      const B = avg[fi] > 0 ? 1 - p.b + (p.b * ft[fi].length) / avg[fi] : 1;
      for (const t of ft[fi]) m.set(t, (m.get(t) ?? 0) + p.weights[f] / B);
    });
    for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return m;
  });
  const N = docs.length;
  return (query: string, k: number) => {
    const q = analyze(query);
    const scored: { i: number; s: number }[] = [];
    for (let i = 0; i < N; i++) {
      let s = 0;
      for (const t of q) {
        const tf = fwd[i].get(t);
        if (tf) s += (Math.log(1 + (N - df.get(t)! + 0.5) / (df.get(t)! + 0.5)) * tf) / (p.k1 + tf);
      }
      if (s > 0) scored.push({ i, s });
    }
    scored.sort((a, b) => b.s - a.s || (docs[a.i].tool_id < docs[b.i].tool_id ? -1 : 1));
    return scored.slice(0, k);
  };
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

async function section(label: string, tools: ToolRecord[]) {
  const docs = baselineIndexDocs(tools);
  const r = createBm25Retriever();
  const buildMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    r.build(docs);
    buildMs.push(performance.now() - t0);
  }
  const st = r.stats();
  const qs = queriesFor(tools);
  for (const q of qs.slice(0, 20)) r.search(q, 10); // warm-up
  const lat: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    r.search(q, 10);
    lat.push(performance.now() - t0);
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  const peer = forwardScanPeer(docs);
  const peerQs = qs.slice(0, docs.length > 5000 ? 20 : QUERIES);
  let agree = 0;
  const peerLat: number[] = [];
  const idxLat: number[] = [];
  for (const q of peerQs) {
    let t0 = performance.now();
    const a = peer(q, 10);
    peerLat.push(performance.now() - t0);
    t0 = performance.now();
    const b = r.search(q, 10);
    idxLat.push(performance.now() - t0);
    if (a.length === b.length && a.every((h, i) => docs[h.i].tool_id === b[i].tool_id)) agree++;
  }
  const ms = (x: number) => x.toFixed(3);
  console.log(`${label}: ${docs.length} docs (of ${tools.length} tools), ${st.terms} terms, ${st.postings} postings`);
  console.log(
    `  build: ${median(buildMs).toFixed(0)} ms median of 3 (${Math.round(docs.length / (median(buildMs) / 1000))} docs/s); peak RSS so far ${rss.toFixed(0)} MB`,
  );
  console.log(
    `  search (${qs.length} queries, k=10): p50 ${ms(percentile(lat, 50))} ms, p95 ${ms(percentile(lat, 95))} ms, max ${ms(Math.max(...lat))} ms`,
  );
  console.log(
    `  vs forward-scan peer (${peerQs.length} queries): median ${ms(median(peerLat))} ms vs ${ms(median(idxLat))} ms -> ${(median(peerLat) / median(idxLat)).toFixed(1)}x faster; same top 10 in ${agree}/${peerQs.length}`,
  );
}

const t0 = performance.now();
if (existsSync(LIVE)) {
  const corpus = loadLiveMcpToolFlat(LIVE, JSON.parse(readFileSync(LIVE, 'utf8')));
  await section(`livemcptool (${LIVE})`, corpus.tools);
} else {
  console.log(`livemcptool: ${LIVE} not found, using syntheticTools(527) instead`);
  await section('synthetic-527', syntheticTools(527));
}
await section('synthetic-50000', syntheticTools(50000));
console.log(`section wall time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
