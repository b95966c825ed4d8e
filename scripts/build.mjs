#!/usr/bin/env node
// `make build` / `npm run build`: compile pipeline/**/*.ts and arms/**/*.ts to dist/ with tsc (tsconfig.build.json:
// rewriteRelativeImportExtensions, so `./x.ts` imports become `./x.js`; --noCheck, type checking
// is `make typecheck`), then bundle the CLI into dist/bundle/, the fixture, the proxy, comply and bench into dist/<name>-bundle/ (scripts/lib/bundle.mjs LIGHT_BUNDLES) and the dashboard's chart runtime into dist/page/. A no-op when dist/BUILD.json records the hash of the current sources.
// The new tree is written beside dist/ and swapped in, so a reader never sees half a build.
// `--check`: exit 1 (and say why) when dist/ is missing or stale, build nothing.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sourcesHash, BUILD_STAMP } from './lib/build-hash.mjs';
import { bundleCli, bundleLight, bundlePage, LIGHT_BUNDLES, PAGE_RUNTIME } from './lib/bundle.mjs';
import { startHeartbeat } from './lib/heartbeat.mjs';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const stampFile = join(dist, BUILD_STAMP);
const hash = sourcesHash(root);
const current = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')).sources_sha256 : null;
if (current === hash) process.exit(0);
if (process.argv.includes('--check')) {
  console.error(`build: dist/ is ${current === null ? 'missing' : 'stale (the sources changed since it was built)'}: run make build`);
  process.exit(1);
}
const tmp = join(root, `dist.tmp-${process.pid}`);
rmSync(tmp, { recursive: true, force: true });
// a cold build takes ~45 s on 2 cores: say so before it starts, so a first run never sits silent
console.error('build: compiling pipeline/ and arms/ to dist/ (tsc) ...');
const t0 = Date.now();
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// tsc says nothing while it works: a line every 10 s says it still does (scripts/lib/heartbeat.mjs)
const stopBeat = startHeartbeat('build: tsc');
const status = await new Promise((done) => {
  const c = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck', '--outDir', tmp], {
    cwd: root,
    stdio: 'inherit',
  });
  c.on('error', (e) => done(e.code ?? 'spawn error'));
  c.on('close', (code, signal) => done(code ?? signal));
});
stopBeat();
if (status !== 0) {
  rmSync(tmp, { recursive: true, force: true });
  console.error(`build: tsc failed (exit ${status})`);
  process.exit(2);
}
// the one file bin/mcpgauge.mjs loads (scripts/lib/bundle.mjs): dist/bundle/cli.js + its lazy chunks
// (a tree without the CLI, such as test/build/progress.test.ts's two-file copy, has nothing to bundle)
try {
  if (existsSync(join(root, 'pipeline', 'cli.ts'))) await bundleCli(root, tmp);
  // the light bundles: dist/fixture-bundle/fixture.cjs, dist/proxy-bundle/proxy.cjs, ... (CommonJS, for the code cache)
  for (const b of LIGHT_BUNDLES) if (existsSync(join(root, 'pipeline', `${b.entry}.ts`))) await bundleLight(root, tmp, b);
  // the dashboard's chart runtime: dist/page/chart-runtime.js (for the browser; report/render.ts inlines it)
  if (existsSync(join(root, 'pipeline', `${PAGE_RUNTIME.entry}.ts`))) await bundlePage(root, tmp);
} catch (e) {
  rmSync(tmp, { recursive: true, force: true });
  console.error(`build: bundling the CLI failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}
writeFileSync(join(tmp, BUILD_STAMP), `${JSON.stringify({ sources_sha256: hash, built_at: new Date().toISOString() }, null, 2)}\n`);
const old = join(root, `dist.old-${process.pid}`);
if (existsSync(dist)) renameSync(dist, old);
renameSync(tmp, dist);
rmSync(old, { recursive: true, force: true });
console.error(`build: dist/ compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
