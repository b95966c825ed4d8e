#!/usr/bin/env node
// The suite's one-time builds, made ahead (`make prepare-tests`; .ci/run runs it before `make
// test`), all at once: most of their time is spent waiting on a registry or a compiler. Each lands
// in the cache its tests read and is a quick check when already current, so no test file has to
// build it while others run:
//   toxiproxy     go install (the gate's network cells)              .cache/toxiproxy/
//   actionlint    go install (the workflow lint test)                .cache/bin/
//   conformance   npm ci of node@22 and the official suite (fixture)  .cache/peers/conformance/
//   lap venv      python3 -m venv + pip install lap-score (live)      .cache/venvs/
//   fixture image the docker cell's image, when an engine answers    the engine's image store
// Needs dist/ (`make build`), or `--sources`: the modules are loaded from pipeline/*.ts through tsx
// instead, so the builds can run beside tsc (.ci/run starts them as soon as node_modules is in).
// `--no-image` leaves the fixture image out (it is made from dist/: .ci/run builds it once tsc is
// done); `--only ID,...` makes just those (ids: toxiproxy, actionlint, conformance, lap, image). A
// start line and an end line per build (its time, or the reason it could not be made), and every 5 s
// a line naming what still runs. Exit 0 every build made or current, 2 when one could not (its
// tests then say why, or skip with a reason) or a flag is wrong (one line).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const log = (line) => process.stderr.write(`prepare: ${line}\n`);
let flags;
try {
  flags = parseArgs({
    options: { sources: { type: 'boolean' }, 'no-image': { type: 'boolean' }, only: { type: 'string' } },
    strict: true,
  }).values;
} catch (e) {
  log(`${e.message} (flags: --sources, --no-image, --only ID,...)`);
  process.exit(2);
}
const load = flags.sources
  ? async (rel) => (await import('tsx/esm/api')).tsImport(pathToFileURL(resolve(root, 'pipeline', `${rel}.ts`)).href, import.meta.url)
  : (rel) => import(pathToFileURL(resolve(root, 'dist', 'pipeline', `${rel}.js`)).href);

/** a script of this folder as a child: ok when it exits 0; its first line (`first`) or last line (else) is the note or the reason */
function script(file, args, first = false) {
  return new Promise((done) => {
    const c = spawn(process.execPath, [resolve(root, 'scripts', file), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    c.on('error', (e) => done({ ok: false, reason: e.message }));
    c.on('exit', (code) => {
      const lines = out.trim().split('\n');
      const line = (first ? lines[0] : lines.at(-1)) ?? '';
      done(code === 0 ? { ok: true, note: line ? ` (${line})` : '' } : { ok: false, reason: `exit ${code}: ${line}` });
    });
  });
}

const BUILDS = [
  {
    id: 'toxiproxy',
    name: 'toxiproxy',
    async make() {
      const { ensureToxiproxy } = await load('gate/network/toxiproxy');
      const r = await ensureToxiproxy();
      return r.ok ? { ok: true, note: r.built_ms === null ? ' (cached)' : '' } : r;
    },
  },
  { id: 'actionlint', name: 'actionlint', make: () => script('actionlint.mjs', ['-version'], true) },
  {
    id: 'conformance',
    name: 'conformance peer',
    async make() {
      const { ensureSuite } = await load('fixture/conformance/suite');
      const peer = await ensureSuite();
      return { ok: true, note: ` (suite ${peer.version})` };
    },
  },
  {
    id: 'lap',
    name: 'lap venv',
    async make() {
      const { ensureLapVenv } = await load('live/lap_venv');
      const r = await ensureLapVenv();
      return r.ok ? { ok: true, note: r.built ? '' : ' (cached)' } : r;
    },
  },
  // no engine: said and passed over (the docker tests skip or fail with their own reason)
  {
    id: 'image',
    name: 'fixture image',
    async make() {
      const r = await script('fixture-image.mjs', ['--if-engine', '--no-smoke']);
      return r.ok && /no Docker engine answers/.test(r.note) ? { ok: true, passed: true, note: r.note } : r;
    },
  },
];

const only = flags.only?.split(',').filter(Boolean);
const unknown = only?.find((id) => !BUILDS.some((b) => b.id === id));
if (unknown !== undefined) {
  log(`--only: unknown build "${unknown}" (ids: ${BUILDS.map((b) => b.id).join(', ')})`);
  process.exit(2);
}
const builds = BUILDS.filter((b) => (!only || only.includes(b.id)) && !(flags['no-image'] && b.id === 'image'));
if (builds.length === 0) {
  log(`nothing to make (--only ${JSON.stringify(flags.only)}${flags['no-image'] ? ' with --no-image' : ''})`);
  process.exit(2);
}
const t0 = Date.now();
const running = new Set(builds.map((b) => b.name));
const beat = setInterval(() => log(`still running (${Math.round((Date.now() - t0) / 1000)} s): ${[...running].join(', ')}`), 5_000);
const results = await Promise.all(
  builds.map(async (b) => {
    const start = Date.now();
    log(`${b.name} ...`);
    let r;
    try {
      r = await b.make();
    } catch (e) {
      r = { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
    running.delete(b.name);
    const s = ((Date.now() - start) / 1000).toFixed(1);
    log(
      !r.ok
        ? `${b.name} not made (${s} s): ${r.reason}`
        : r.passed
          ? `${b.name} passed over${r.note}`
          : `${b.name} ready in ${s} s${r.note}`,
    );
    return r.ok;
  }),
);
clearInterval(beat);
process.exit(results.every(Boolean) ? 0 : 2);
