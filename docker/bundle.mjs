#!/usr/bin/env node
// Image build step (both paths: the registry Dockerfile runs it inside the build, `make
// fixture-image`'s offline path runs it on the host): bundle the image's three programs into
// single ES modules with esbuild (a dependency of tsx), so a container starts without tsx
// compiling TypeScript on every cold start, and without node_modules in the image beyond the
// ajv packages (`.image/node_modules/`, see LAZY_PACKAGES): pipeline/util/schema.ts loads ajv
// lazily through createRequire, which a bundler cannot follow, and the proxy checks its config
// with a JSON Schema.
//   fixture.mjs  the fixture's light entry (pipeline/cli/fixture-entry)
//   proxy.mjs    the reference proxy's light entry (pipeline/cli/proxy-entry)
//   memory.mjs   @modelcontextprotocol/server-memory (the compose proxy's in-container upstream)
// The hook for a compiled build: when dist/pipeline/cli/<entry>.js exists (tsc output), that is
// bundled instead of the TypeScript source.
// Usage: node docker/bundle.mjs [OUT_DIR]   (default <repo>/.image; the image expects /app/.image)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = resolve(process.argv[2] ?? join(root, '.image'));
const require = createRequire(join(root, 'package.json'));
const esbuild = require(require.resolve('esbuild', { paths: [dirname(require.resolve('tsx/package.json'))] }));

const entry = (name) => {
  const js = join(root, 'dist', 'pipeline', 'cli', `${name}.js`);
  return existsSync(js) ? js : join(root, 'pipeline', 'cli', `${name}.ts`);
};
export const BUNDLES = {
  'fixture.mjs': entry('fixture-entry'),
  'proxy.mjs': entry('proxy-entry'),
  'memory.mjs': require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
};

mkdirSync(out, { recursive: true });
for (const [file, from] of Object.entries(BUNDLES)) {
  await esbuild.build({
    entryPoints: [from],
    outfile: join(out, file),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    legalComments: 'none',
    // CommonJS dependencies inside an ES module bundle still call require()
    banner: { js: "import { createRequire as __mcpgaugeRequire } from 'node:module'; const require = __mcpgaugeRequire(import.meta.url);" },
  });
  process.stdout.write(`bundled ${file} <- ${from.slice(root.length + 1)}\n`);
}

/** packages loaded at run time by createRequire (util/schema.ts), copied with their dependencies */
export const LAZY_PACKAGES = ['ajv', 'ajv-formats'];
const modules = join(out, 'node_modules');
rmSync(modules, { recursive: true, force: true });
const copied = new Set();
const copy = (name) => {
  if (copied.has(name)) return;
  copied.add(name);
  const dir = dirname(require.resolve(`${name}/package.json`));
  cpSync(dir, join(modules, name), { recursive: true, dereference: true });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const dep of Object.keys(pkg.dependencies ?? {})) copy(dep);
};
for (const name of LAZY_PACKAGES) copy(name);
process.stdout.write(`copied ${copied.size} lazily loaded package(s) to node_modules/: ${[...copied].sort().join(', ')}\n`);
