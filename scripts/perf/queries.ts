/**
 * bench-perf section "queries": what the default profile costs per golden query. The whole
 * `mcpgauge bench` process (default profile: every arm, every retriever, both tokenizers, 2,000
 * bootstrap iterations; no live stage) on a ~500-tool catalog at 100 / 300 / 1,000 / 3,000
 * seeded generated queries (scripts/perf/lib/queries.ts: 6-word windows of tool descriptions,
 * that tool the one label). Catalog: LiveMCPTool (527 tools: ../shared/datasets mirror or
 * .cache/corpora/livemcptool after `make fetch`; PERF_CATALOG=FILE names another), else
 * syntheticTools(500) (said so). Per size:
 * wall time, CPU time and peak RSS (lib/rss-probe.mjs, the process's own incl. workers),
 * report.json, tables/ and dashboard sizes; then the fitted exponents of wall and CPU time in
 * queries (least squares on log-log, pipeline/scale/fit.ts) with R² (on a loaded machine the CPU
 * fit is the steadier one). Goals (issue 31; printed, never asserted): exponent <= 1.1,
 * 1,000 queries <= 60 s and <= 1.5 GB, report.json <= 5 MB. PERF_QUERIES=100,300 picks the sizes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { logLogFit } from '../../pipeline/scale/fit.ts';
import { perfQueries } from './lib/queries.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SIZES = (process.env.PERF_QUERIES ?? '100,300,1000,3000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const GOALS = { exponent: 1.1, wall_s_at_1000: 60, rss_mb: 1536, report_mb: 5 };

async function catalog(dir: string): Promise<{ path: string; label: string }> {
  const live = [
    process.env.PERF_CATALOG ?? '',
    resolve(ROOT, '..', 'shared', 'datasets', 'livemcptool', 'tools.json'),
    join(ROOT, '.cache', 'corpora', 'livemcptool', 'tools.json'),
  ].find((p) => p !== '' && existsSync(p));
  if (live) return { path: live, label: `LiveMCPTool (${live})` };
  const { syntheticTools } = await import('../../pipeline/corpus/synthetic.ts');
  const { serializeFrozen } = await import('../../pipeline/corpus/frozen.ts');
  const { compareIds } = await import('../../pipeline/corpus/record.ts');
  const path = join(dir, 'synthetic-500-v1.tools.json');
  writeFileSync(
    path,
    serializeFrozen({
      version: 'synthetic-500-v1',
      name: 'synthetic 500',
      license: 'MIT',
      generated_from: { generator: 'syntheticTools(500, 42)' },
      tools: syntheticTools(500, 42).sort((a, b) => compareIds(a.tool_id, b.tool_id)),
    }),
  );
  return { path, label: 'syntheticTools(500) (no LiveMCPTool file: ../shared/datasets/livemcptool or `make fetch FROM=dir`)' };
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const dirBytes = (d: string) => (existsSync(d) ? readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0) : 0);

const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-perf-queries-'));
try {
  const cat = await catalog(dir);
  const corpus = await loadCorpus(cat.path);
  console.log(
    `catalog: ${cat.label}, ${corpus.tools.length} tools; default profile, whole process (node bin/mcpgauge.mjs bench), no live stage`,
  );
  const points: { x: number; y: number }[] = [];
  const cpuPoints: { x: number; y: number }[] = [];
  const rows: string[] = [];
  for (const n of SIZES) {
    const golden = join(dir, `golden-${n}.json`);
    writeFileSync(golden, JSON.stringify(perfQueries(corpus.tools, corpus.version, n)));
    const out = join(dir, `out-${n}`);
    const rssFile = join(dir, `rss-${n}`);
    const t0 = performance.now();
    const p = spawnSync(
      process.execPath,
      [
        '--import',
        join(ROOT, 'scripts', 'perf', 'lib', 'rss-probe.mjs'),
        join(ROOT, 'bin', 'mcpgauge.mjs'),
        'bench',
        '--corpus',
        cat.path,
        '--golden',
        golden,
        '--out',
        out,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, MCPGAUGE_PERF_RSS_FILE: rssFile },
        timeout: 1_800_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const wall = (performance.now() - t0) / 1000;
    if (p.status !== 0) {
      console.log(
        `${String(n).padStart(5)} queries: FAILED (exit ${p.status}${p.signal ? `, ${p.signal}` : ''}) ${(p.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`,
      );
      continue;
    }
    const probe = existsSync(rssFile)
      ? (JSON.parse(readFileSync(rssFile, 'utf8')) as { max_rss_kb: number; cpu_user_s: number; cpu_system_s: number })
      : undefined;
    const rss = probe ? probe.max_rss_kb / 1024 : NaN;
    const cpu = probe ? probe.cpu_user_s + probe.cpu_system_s : NaN;
    const report = statSync(join(out, 'report.json')).size;
    const tables = dirBytes(join(out, 'tables'));
    const dash = statSync(join(out, 'dashboard.html')).size;
    points.push({ x: n, y: wall });
    cpuPoints.push({ x: n, y: cpu });
    rows.push(
      `${String(n).padStart(5)} queries: ${wall.toFixed(1).padStart(7)} s wall (${((wall / n) * 1000).toFixed(1)} ms/query), ${cpu.toFixed(1)} s CPU   peak RSS ${rss.toFixed(0).padStart(5)} MB   report.json ${mb(report).toFixed(2)} MB   tables/ ${mb(tables).toFixed(2)} MB   dashboard.html ${mb(dash).toFixed(2)} MB`,
    );
    console.log(rows.at(-1));
    if (n === 1000) {
      console.log(
        `        goals at 1,000: wall ${wall.toFixed(1)} s vs <= ${GOALS.wall_s_at_1000} s (${wall <= GOALS.wall_s_at_1000 ? 'within' : 'OVER'}), RSS ${rss.toFixed(0)} MB vs <= ${GOALS.rss_mb} MB (${rss <= GOALS.rss_mb ? 'within' : 'OVER'}), report.json ${mb(report).toFixed(2)} MB vs <= ${GOALS.report_mb} MB (${mb(report) <= GOALS.report_mb ? 'within' : 'OVER'})`,
      );
    }
    rmSync(out, { recursive: true, force: true });
  }
  for (const [what, pts] of [
    ['wall time', points],
    ['CPU time', cpuPoints],
  ] as const) {
    const fit = logLogFit(pts);
    if (fit)
      console.log(
        `${what} ~ queries^${fit.exponent} (R² ${fit.r2}, ${fit.n} points; goal <= ${GOALS.exponent}: ${fit.exponent <= GOALS.exponent ? 'within' : 'OVER'})`,
      );
    else console.log(`${what} exponent: not computed (fewer than 2 sizes ran)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
