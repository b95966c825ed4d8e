// The test files as bundles (issue 31 item 6): `node --import tsx` costs every test process ~0.2 s of
// CPU to start and then a loader-hook round trip per module, 0.5-1.8 s of CPU per file once the
// pipeline's modules are imported (measured 2026-12-03: test/gate/calls 0.94 -> 0.54 s,
// test/report/write 7.3 -> 5.8 s). scripts/test.mjs therefore runs each test file as one ES module
// that esbuild (the compiler tsx itself uses, so the same TypeScript semantics) bundled with
// everything it imports from this repository; npm packages stay imports of node_modules. Each
// module's import.meta.url / dirname / filename become its source file's, so paths built from
// them (fixtures, the repo root, `new URL('./x', import.meta.url)`, workers that register tsx
// themselves from the sources) are what they are under tsx. A file that imports a path computed
// at run time (`import(join(DIR, f))` of .ts sources) cannot be bundled: its entry registers tsx
// and imports the source. The bundles sit under node_modules/.cache/ (package imports resolve
// from there), one folder per run, removed by the runner; linked source maps (--enable-source-maps)
// point stack traces at the .ts lines.
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** an import whose path is computed at run time, other than the tscg package's name (arms/listing/tscg.ts) */
const COMPUTED_IMPORT = /\bimport\((?!\s*["'`]|TSCG_MODULE\b)/;

const bundleRoot = (root) => join(root, 'node_modules', '.cache', 'mcpgauge-test-bundles');

/** the folder a run's bundles go to (removed with removeTestBundles) */
export function testBundleDir(root) {
  return join(bundleRoot(root), String(process.pid));
}

/** the folders of runs that ended without removing theirs (killed): their process is gone */
function sweepStale(root) {
  let names = [];
  try {
    names = readdirSync(bundleRoot(root));
  } catch {
    return;
  }
  for (const n of names) {
    try {
      process.kill(Number(n), 0);
    } catch (e) {
      if (e.code === 'ESRCH' || !/^\d+$/.test(n)) rmSync(join(bundleRoot(root), n), { recursive: true, force: true });
    }
  }
}

/** the source test file of a bundle path (test/x.test.ts for <dir>/test/x.test.mjs); other paths unchanged */
export function sourceOfBundle(root, file) {
  const dir = testBundleDir(root);
  const path = file.startsWith('file://') ? new URL(file).pathname : file;
  return path.startsWith(`${dir}/`) ? join(root, relative(dir, path).replace(/\.mjs$/, '.ts')) : file;
}

/** import.meta of a repository module, as the literals of its source file */
const importMetaPlugin = {
  name: 'import-meta-of-source',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return { contents: text, loader };
      const contents = text
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader };
    });
  },
};

/** Bundle the test files (paths relative to root); returns the bundle paths in the same order. */
export async function bundleTests(root, files) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const out = testBundleDir(root);
  sweepStale(root);
  rmSync(out, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: files.map((f) => join(root, f)),
    absWorkingDir: root,
    outdir: out,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [importMetaPlugin],
  });
  const bundles = files.map((f) => join(out, f.replace(/\.ts$/, '.mjs')));
  for (const [i, b] of bundles.entries()) {
    if (!COMPUTED_IMPORT.test(readFileSync(b, 'utf8'))) continue;
    rmSync(`${b}.map`, { force: true });
    writeFileSync(
      b,
      `// imports .ts sources by computed paths: run from the sources through tsx (scripts/lib/test-bundle.mjs)\nimport { register } from 'tsx/esm/api';\nregister();\nawait import(${JSON.stringify(pathToFileURL(join(root, files[i])).href)});\n`,
    );
  }
  return bundles;
}

export function removeTestBundles(root) {
  rmSync(testBundleDir(root), { recursive: true, force: true });
}
