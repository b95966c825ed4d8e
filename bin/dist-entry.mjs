// Where the compiled code is (dist/, written by `make build` / `npm run build`), and one clear
// line (exit 2) when it is missing, instead of a stack trace. `tree`: `pipeline` (tsc's output, one
// file per module) or `bundle` (the bundled CLI, scripts/lib/bundle.mjs) as ES modules
// (importDist), or `fixture-bundle` / `proxy-bundle` / `comply-bundle` / `bench-bundle`, the light
// bundles: one CommonJS file each,
// compiled with V8's code cache (requireLight).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** the folder beside a light bundle that holds its compile cache (scripts/lib/bundle.mjs keeps it out of the package) */
export const V8_CACHE_DIR = '.v8';

function distFile(rel, tree, ext) {
  const file = fileURLToPath(new URL(`../dist/${tree}/${rel}${ext}`, import.meta.url));
  if (!existsSync(file)) {
    process.stderr.write(`mcpgauge: ${file} is missing: run \`make build\` (or \`npm run build\`) first\n`);
    process.exit(2);
  }
  return file;
}

export async function importDist(rel, tree = 'pipeline') {
  return import(pathToFileURL(distFile(rel, tree, '.js')).href);
}

/**
 * A light bundle (dist/<tree>/<rel>.cjs), run and its exports returned. Node 20 has no compile
 * cache for modules (module.enableCompileCache is Node >= 22.1), but vm.Script takes V8's code
 * cache: it lives in .v8/ beside the bundle (as trusted as the bundle itself: whoever can write
 * there can change the bundle too), named by the bundle's content hash, this node's version and
 * arch; when it is missing or V8 rejects it, it is written at exit (then holding every function
 * the run compiled), through a temporary file and a rename, and older ones of the bundle are
 * removed. A cache that cannot be read or written is skipped (a read-only install runs uncached).
 * A run that only prints help or the version (infoOnly) writes none: its cache would hold the
 * command setup alone, and every later run, taking that cache as a hit, would compile the rest
 * anew (a corpus_v2 bench 0.486 s after a first `bench --help` instead of 0.450 s, 2026-12-04).
 * MCPGAUGE_COMPILE_CACHE=off: no cache. MCPGAUGE_TRACE_LOADS=FILE: one line per bundle loaded
 * (its file URL and `#cache=hit|miss|rejected|off`; test/build/helpers.ts loadedModules).
 */
export function requireLight(rel, tree) {
  const file = distFile(rel, tree, '.cjs');
  const src = readFileSync(file, 'utf8');
  const off = process.env.MCPGAUGE_COMPILE_CACHE === 'off';
  const dir = join(dirname(file), V8_CACHE_DIR);
  const key = createHash('sha1').update(src).digest('hex').slice(0, 16);
  const cacheFile = join(dir, `${rel}-${key}-${process.version}-${process.arch}.bin`);
  let cachedData;
  if (!off) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      /* no cache yet */
    }
  }
  // the same strict mode as the ES modules it was bundled from; its import() calls come here
  // (scripts/lib/bundle.mjs routeDynamicImports: a vm script's own loses its callback with a cache)
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __mcpgaugeImport) {'use strict';${src}\n})`, {
    filename: file,
    cachedData,
  });
  const status = off ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  trace(file, status);
  if ((status === 'miss' || status === 'rejected') && !infoOnly(process.argv.slice(2)))
    process.once('exit', () => writeCache(script, dir, cacheFile, `${rel}-`, `${rel}-${key}-`));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), (s) => import(s));
  return module.exports;
}

/**
 * true when `args` (process.argv after node and the script) ask only for help or the version:
 * --help, -h, --version or -V before a `--` (what follows `--` is a command line of its own, e.g.
 * the server `comply` starts)
 */
export function infoOnly(args) {
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return own.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-V');
}

function trace(file, status) {
  if (!process.env.MCPGAUGE_TRACE_LOADS) return;
  try {
    appendFileSync(process.env.MCPGAUGE_TRACE_LOADS, `${pathToFileURL(file).href}#cache=${status}\n`);
  } catch {
    /* a trace that cannot be written changes nothing */
  }
}

function writeCache(script, dir, file, bundlePrefix, keyPrefix) {
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(dir)) if (f.startsWith(bundlePrefix) && !f.startsWith(keyPrefix)) rmSync(join(dir, f), { force: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, file);
  } catch {
    /* read-only install, full disk: the next start compiles again */
  }
}
