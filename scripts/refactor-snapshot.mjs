#!/usr/bin/env zx
// Behaviour snapshot for refactors: runs the same real jobs before and after a change and
// compares what they wrote, timing aside.
//   node scripts/refactor-snapshot.mjs capture DIR   run the jobs, write normalised outputs to DIR
//   node scripts/refactor-snapshot.mjs compare BEFORE1 BEFORE2 AFTER
//     "timing aside" is measured, not guessed: the fields where two captures of the same code
//     (BEFORE1, BEFORE2) differ are noise (latencies, nonces, pids, fits over timings); exit 0 when
//     AFTER agrees with BEFORE1 on every other field, else 1 (the differing paths are printed).
//     In strings, digit runs and hex nonces are masked before comparing, so a reason that
//     differs only in a millisecond figure still has to match word for word.
// Jobs: the sample-report bench (offline + live + extra corpus), systems side by side with a scale
// sweep, one gate cell on the reference proxy, and comply against the fixture over stdio.
// Paths of the checkout and of the temp folder are replaced by <repo> / <tmp>.
// Per-query rows are captured apart (NAME.per_query.json: every row with its block and keys, in
// report order), from wherever the report keeps them: inline `per_query` arrays of report.json
// (before issue 31) or tables/per_query.parquet beside it, so a move of the rows compares equal.
import { $, fs, path, tmpdir } from 'zx';
import { parquetReadObjects } from 'hyparquet';
import { SAMPLE_ARGS, SYSTEMS_SAMPLE_ARGS } from './lib/sample-bench.mjs';
$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const [mode, a, b] = process.argv.slice(2);

function normalise(text, tmp) {
  return text.split(root).join('<repo>').split(tmp).join('<tmp>');
}

/** the retrieval blocks of a report that hold per-query rows: [where, corpus, arm, retriever, system, rows?] */
function queryBlocks(r) {
  const out = [];
  for (const x of r.retrieval ?? [])
    if (!('not_scorable' in x))
      out.push({ source: 'offline', corpus: x.corpus_id, arm: x.arm, retriever: x.retriever.id, system: null, rows: x.per_query });
  const live = (l, system) => {
    for (const x of l.retrieval)
      out.push({
        source: `live_${x.detail}`,
        corpus: l.corpus_id ?? null,
        arm: `proxy_${x.detail}`,
        retriever: null,
        system,
        rows: x.per_query,
      });
  };
  if (r.live) live(r.live, null);
  for (const s of r.systems ?? []) if (s.live) live(s.live, s.name);
  return out;
}

/** every per-query row with its keys, nulls and absent fields alike left out, top/gold as arrays */
async function perQueryRows(report, dir) {
  const blocks = queryBlocks(report);
  const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
  if (blocks.every((b) => b.rows === undefined)) {
    const file = path.join(dir, 'tables', 'per_query.parquet');
    if (!fs.existsSync(file)) return [];
    const buf = fs.readFileSync(file);
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
    return rows.map((row) => {
      const o = clean(row);
      for (const k of ['top', 'gold']) if (typeof o[k] === 'string') o[k] = JSON.parse(o[k]);
      return o;
    });
  }
  return blocks.flatMap((b) =>
    (b.rows ?? []).map((q) => clean({ source: b.source, corpus: b.corpus, arm: b.arm, retriever: b.retriever, system: b.system, ...q })),
  );
}

async function capture(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const tmp = tmpdir();
  const jobs = [
    ['report.json', ['bench', ...SAMPLE_ARGS, '--out', `${tmp}/r1`], `${tmp}/r1/report.json`],
    ['report-systems.json', ['bench', ...SYSTEMS_SAMPLE_ARGS, '--out', `${tmp}/r2`], `${tmp}/r2/report.json`],
    ['gate-report.json', ['gate', '--cells', 'stdio/2025-11-25', '--out', `${tmp}/g`], `${tmp}/g/gate-report.json`],
    ['comply.json', ['comply', '--format', 'json', '--out', `json=${tmp}/c.json`, '--', 'node', 'bin/mcpfixture.mjs'], `${tmp}/c.json`],
  ];
  try {
    for (const [name, args, file] of jobs) {
      const r = await $({ cwd: root, nothrow: true, stdio: ['ignore', 'ignore', 'pipe'] })`node bin/mcpgauge.mjs ${args}`;
      console.log(`${name}: exit ${r.exitCode}`);
      const text = normalise(fs.readFileSync(file, 'utf8'), tmp);
      const doc = JSON.parse(text);
      if (name.startsWith('report')) {
        const rows = await perQueryRows(doc, path.dirname(file));
        fs.writeFileSync(path.join(dir, name.replace(/\.json$/, '.per_query.json')), `${JSON.stringify(rows, null, 1)}\n`);
        // where the rows live is not a figure: inline rows, the per-block query id digest and the tables index are compared as the rows above
        for (const b of [
          ...(doc.retrieval ?? []),
          ...(doc.live?.retrieval ?? []),
          ...(doc.systems ?? []).flatMap((s) => s.live?.retrieval ?? []),
        ]) {
          delete b.per_query;
          delete b.query_ids_sha256;
        }
        delete doc.tables;
      }
      fs.writeFileSync(path.join(dir, name), `${JSON.stringify(doc, null, 1)}\n`);
      for (const extra of ['summary.md', 'junit.xml']) {
        const p = path.join(path.dirname(file), extra);
        if (name.startsWith('gate') && fs.existsSync(p))
          fs.writeFileSync(path.join(dir, `gate-${extra}`), normalise(fs.readFileSync(p, 'utf8'), tmp));
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** strings compare with numbers and hex nonces masked */
const maskText = (t) => t.replace(/[0-9a-f]{8,}/g, '<hex>').replace(/\d+(\.\d+)?/g, '#');

/** differing JSON paths of x vs y (appended to out) */
function diffJson(x, y, at, out) {
  if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) out.push(`${at}: length ${x.length} vs ${y.length}`);
    for (let i = 0; i < Math.min(x.length, y.length); i++) diffJson(x[i], y[i], `${at}[${i}]`, out);
    return;
  }
  if (x && y && typeof x === 'object' && typeof y === 'object') {
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(k in x)) out.push(`${at}.${k}: only in the second`);
      else if (!(k in y)) out.push(`${at}.${k}: only in the first`);
      else diffJson(x[k], y[k], `${at}.${k}`, out);
    }
    return;
  }
  if (typeof x === 'string' && typeof y === 'string' && maskText(x) === maskText(y)) return;
  if (JSON.stringify(x) !== JSON.stringify(y))
    out.push(`${at}: ${JSON.stringify(x)?.slice(0, 100)} vs ${JSON.stringify(y)?.slice(0, 100)}`);
}

/** a field path with array indices generalised: a field that varies in one row between runs is noise in every row */
const pathOf = (line) => line.slice(0, line.indexOf(': ')).replace(/\[\d+\]/g, '[*]');
const read = (dir, name) => fs.readFileSync(path.join(dir, name), 'utf8');

if (mode === 'capture' && a) await capture(path.resolve(a));
else if (mode === 'compare' && a && b && process.argv[5]) {
  const after = process.argv[5];
  let bad = 0;
  for (const name of fs.readdirSync(a).sort()) {
    if (!fs.existsSync(path.join(after, name))) {
      console.log(`${name}: missing after`);
      bad++;
      continue;
    }
    const noise = [];
    const out = [];
    if (name.endsWith('.json')) {
      const base = JSON.parse(read(a, name));
      diffJson(base, JSON.parse(read(b, name)), '$', noise);
      diffJson(base, JSON.parse(read(after, name)), '$', out);
    } else {
      if (maskText(read(a, name)) !== maskText(read(b, name))) noise.push('$: text');
      if (maskText(read(a, name)) !== maskText(read(after, name))) out.push('$: text differs (numbers masked)');
    }
    const noisy = new Set(noise.map(pathOf));
    const real = out.filter((line) => !noisy.has(pathOf(line)));
    console.log(`${name}: ${real.length ? `${real.length} difference(s)` : 'identical'} (${noisy.size} run-to-run field(s) set aside)`);
    for (const line of real.slice(0, 40)) console.log(`  ${line}`);
    bad += real.length ? 1 : 0;
  }
  process.exit(bad ? 1 : 0);
} else {
  console.error('usage: refactor-snapshot.mjs capture DIR | compare BEFORE1 BEFORE2 AFTER');
  process.exit(2);
}
