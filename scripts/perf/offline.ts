/**
 * bench-perf section "offline": wall time and peak RSS per stage of the offline pipeline
 * (arms x both tokenizers + BM25 index + golden scoring + economics) on
 *   - the LiveMCPTool corpus (527 tools; ../shared/datasets mirror or .cache after `make fetch`),
 *   - a deterministic synthetic corpus of 50,000 tools.
 * Each corpus runs in its own child process so peak RSS is that run's alone. Neither corpus has
 * relevance labels, so a perf-only query set is derived (200 tools, query = the first words of
 * the description, that tool as the one relevant label): it exercises the index, it is not a
 * quality figure. Targets: 527 tools < 5 s and < 300 MB; 50k tools < 60 s and < 1.5 GB.
 * The time target covers "arms + retrieval" (render + count under both tokenizers, BM25 index,
 * golden scoring); the total with economics is printed against the same budget. Peak RSS is
 * the child process's (worker threads included). MCPGAUGE_THREADS=1 runs the single-thread path.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GoldenSet, ToolRecord } from '../../pipeline/types.ts';
import { seededRandom } from '../../pipeline/util/stats.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

function perfGolden(tools: ToolRecord[], version: string, n = 200, seed = 7): GoldenSet {
  const rnd = seededRandom(seed);
  const picked = new Set<number>();
  const usable = tools.map((t, i) => ({ t, i })).filter(({ t }) => t.description.split(/\s+/).filter(Boolean).length >= 3);
  while (picked.size < Math.min(n, usable.length)) picked.add(Math.floor(rnd() * usable.length));
  return {
    corpus_version: version,
    queries: [...picked]
      .sort((a, b) => a - b)
      .map((k, j) => {
        const t = usable[k].t;
        return { id: `perf-${j}`, query: t.description.split(/\s+/).slice(0, 6).join(' '), labels: [{ tool_id: t.tool_id, relevance: 3 }] };
      }),
  };
}

async function child(kind: string, corpusPath: string): Promise<void> {
  const { runOffline } = await import('../../pipeline/bench/offline.ts');
  const { loadCorpus } = await import('../../pipeline/corpus/load.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-perf-'));
  let path = corpusPath;
  const tLoad0 = performance.now();
  if (kind === 'synthetic') {
    const { syntheticTools } = await import('../../pipeline/corpus/synthetic.ts');
    const { serializeFrozen } = await import('../../pipeline/corpus/frozen.ts');
    const { compareIds } = await import('../../pipeline/corpus/record.ts');
    path = join(dir, 'synthetic-50k-v1.tools.json');
    writeFileSync(
      path,
      serializeFrozen({
        version: 'synthetic-50k-v1',
        name: 'synthetic 50k',
        license: 'MIT',
        generated_from: { generator: 'syntheticTools(50000, 42)' },
        tools: syntheticTools(50_000, 42).sort((a, b) => compareIds(a.tool_id, b.tool_id)),
      }),
    );
  }
  const genMs = performance.now() - tLoad0;
  const corpus = await loadCorpus(path);
  const golden = perfGolden(corpus.tools, corpus.version);
  const goldenPath = join(dir, 'golden.json');
  writeFileSync(goldenPath, JSON.stringify({ format: 'mcpgauge-golden', version: 'perf', ...golden }));
  const t0 = performance.now();
  const res = await runOffline({
    corpora: [{ path, golden: goldenPath }],
    discoveryMenu: join(ROOT, 'datasets', 'proxy-menu-v1.tools.json'),
    arms: 'all',
    tokenizers: 'all',
    bootstrap: { iterations: 200, seed: 42 },
    responseTopK: 15,
  });
  const total = performance.now() - t0;
  const peak = process.resourceUsage().maxRSS / 1024;
  const stages = new Map<string, number>();
  let armsRetrieval = 0;
  for (const t of res.timings) {
    const key = t.stage.startsWith('arm:')
      ? 'arms: render + count'
      : t.stage === 'arms:finish'
        ? 'arms: wait for worker'
        : t.stage.startsWith('retrieval:')
          ? 'retrieval (index + score)'
          : t.stage;
    stages.set(key, (stages.get(key) ?? 0) + t.ms);
    if (key.startsWith('arms') || key.startsWith('retrieval')) armsRetrieval += t.ms;
  }
  const threads = res.threads === 2 ? '2 threads (counting shared with a worker)' : '1 thread';
  const lines = [
    `corpus ${corpus.id}: ${corpus.tools.length} tools, ${golden.queries.length} perf queries, ${threads}${kind === 'synthetic' ? ` (generated + written in ${(genMs / 1000).toFixed(1)} s, not counted)` : ''}`,
  ];
  for (const [k, v] of stages) lines.push(`  ${k.padEnd(28)} ${(v / 1000).toFixed(2).padStart(8)} s`);
  lines.push(`  ${'arms + retrieval'.padEnd(28)} ${(armsRetrieval / 1000).toFixed(2).padStart(8)} s`);
  lines.push(
    `  ${'total offline (+ economics)'.padEnd(28)} ${(total / 1000).toFixed(2).padStart(8)} s   peak RSS ${peak.toFixed(0)} MB (process, workers included)`,
  );
  process.stdout.write(
    `${lines.join('\n')}\n@@${JSON.stringify({ arms_retrieval_s: armsRetrieval / 1000, total_s: total / 1000, peak_mb: peak })}\n`,
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(process.argv[3], process.argv[4]);
  const candidates = [
    resolve(ROOT, '..', 'shared', 'datasets', 'livemcptool', 'tools.json'),
    join(ROOT, '.cache', 'corpora', 'livemcptool', 'tools.json'),
  ];
  const live = candidates.find((p) => existsSync(p));
  const runs: { label: string; kind: string; path: string; target_s: number; target_mb: number }[] = [];
  if (live) runs.push({ label: 'LiveMCPTool (527)', kind: 'livemcptool', path: live, target_s: 5, target_mb: 300 });
  else console.log('LiveMCPTool: skipped (no ../shared/datasets/livemcptool/tools.json and no .cache copy; run `make fetch FROM=dir`)');
  runs.push({ label: 'synthetic 50k', kind: 'synthetic', path: '', target_s: 60, target_mb: 1536 });
  for (const r of runs) {
    const p = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--max-old-space-size=4096', import.meta.filename, '--child', r.kind, r.path],
      { encoding: 'utf8', cwd: ROOT, timeout: 300_000 },
    );
    if (p.status !== 0) {
      console.log(`${r.label}: FAILED (exit ${p.status}) ${p.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      continue;
    }
    const out = p.stdout.split('\n');
    const m = JSON.parse(out.find((l) => l.startsWith('@@'))!.slice(2)) as { arms_retrieval_s: number; total_s: number; peak_mb: number };
    console.log(
      out
        .filter((l) => !l.startsWith('@@'))
        .join('\n')
        .trimEnd(),
    );
    const ratio = (v: number, budget: number) => `${(v / budget).toFixed(2)}x of budget (${v < budget ? 'within' : 'OVER'})`;
    console.log(`  target: < ${r.target_s} s and < ${r.target_mb} MB`);
    console.log(`    arms + retrieval           ${ratio(m.arms_retrieval_s, r.target_s)}`);
    console.log(`    total with economics       ${ratio(m.total_s, r.target_s)}`);
    console.log(`    peak RSS                   ${ratio(m.peak_mb, r.target_mb)}`);
  }
}

await main();
