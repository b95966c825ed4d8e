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
// point stack traces at the .ts lines. The .ts scripts the tests start as processes of their own
// (a probe child, a planted-bug gateway) run the same way (scriptArgs): bundled once per test
// process, ~0.45 s of CPU less per start than `node --import tsx` (measured 2026-12-04 on
// test/comply/hostile/probe-child.ts: 1.05-1.22 s -> 0.55-0.70 s of user CPU).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** the source test file of a bundle path (test/x.test.ts for <dir>/<NNN>/test/x.test.mjs); other paths unchanged */
export function sourceOfBundle(root, file) {
  const dir = testBundleDir(root);
  const path = file.startsWith('file://') ? new URL(file).pathname : file;
  return path.startsWith(`${dir}/`)
    ? join(
        root,
        relative(dir, path)
          .replace(/^\d{4}\//, '')
          .replace(/\.mjs$/, '.ts'),
      )
    : file;
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

/** how every bundle is made (test files and the scripts they start) */
const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [importMetaPlugin],
};

/** the folder of the i-th file's bundle: its place in the run order, 4 digits so the names sort as numbers */
const orderDir = (i) => String(i).padStart(4, '0');

/**
 * Bundle the test files (paths relative to root); returns the bundle paths in the same order. Each
 * bundle sits under a folder named by its place in `files` (<dir>/0000/test/…, <dir>/0001/test/…):
 * node's runner sorts the files it is given by path before it starts them, so the folder names are
 * what makes it start them in the caller's order.
 */
export async function bundleTests(root, files) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const out = testBundleDir(root);
  sweepStale(root);
  rmSync(out, { recursive: true, force: true });
  await esbuild.build({
    ...ESBUILD_OPTIONS,
    entryPoints: files.map((f, i) => ({ in: join(root, f), out: join(orderDir(i), f.replace(/\.ts$/, '')) })),
    absWorkingDir: root,
    outdir: out,
    outExtension: { '.js': '.mjs' },
  });
  const bundles = files.map((f, i) => join(out, orderDir(i), f.replace(/\.ts$/, '.mjs')));
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

const scriptBundles = new Map();

/**
 * The node arguments that run the TypeScript script `file` (absolute) as a process of its own:
 * its bundle (as bundleTests makes them), made on first use in this process under
 * <bundles>/<pid>/scripts/ and removed when this process exits (a killed process's folder is swept
 * by the next run); a script that imports by computed paths runs through tsx as before. Synchronous
 * (esbuild's plugins need its async API: a short node child bundles it), so a command line can be
 * built where it is needed.
 */
export function scriptArgs(root, file) {
  const hit = scriptBundles.get(file);
  if (hit) return hit;
  const own = join(bundleRoot(root), String(process.pid));
  const out = join(own, 'scripts', relative(root, file).replace(/\.ts$/, '.mjs'));
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), root, file, out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundling ${file} failed: ${r.stderr || r.error}`);
  if (scriptBundles.size === 0) process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  const args = COMPUTED_IMPORT.test(readFileSync(out, 'utf8')) ? ['--import', 'tsx', file] : ['--enable-source-maps', out];
  scriptBundles.set(file, args);
  return args;
}

// `node test-bundle.mjs ROOT FILE OUT`: bundle one script (scriptArgs' child)
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.length === 5) {
  const [root, file, outfile] = process.argv.slice(2);
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  await esbuild.build({ ...ESBUILD_OPTIONS, entryPoints: [file], absWorkingDir: root, outfile });
}
