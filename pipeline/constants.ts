/**
 * One home per constant: paths, version, tokenizer names, session call counts, the baseline
 * arm. Every module and test imports these from here (never from the CLI).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';

/**
 * true when this module runs compiled (dist/pipeline/constants.js, or bundled into dist/<bundle>/*.js
 * or a light bundle's *.cjs), false when the sources run through tsx (tests). Compiled code lives
 * one level deeper (dist/pipeline/...).
 */
export const COMPILED = /\.c?js$/.test(import.meta.url);
/** the repository (or installed package) root: this file is pipeline/constants.ts or dist/pipeline/constants.js */
export const REPO_ROOT = resolve(import.meta.dirname, COMPILED ? '../..' : '..');
/** the compiled tree `make build` (scripts/build.mjs) writes; every spawned mcpgauge/fixture process runs it */
export const DIST_DIR = resolve(REPO_ROOT, 'dist');
/** the mcpgauge command (an executable node script): `{MCPGAUGE}` in a proxy command or config template */
export const MCPGAUGE_BIN = resolve(REPO_ROOT, 'bin', 'mcpgauge.mjs');
/** the compiled form of a pipeline module: distPath('cli/fixture-entry') = dist/pipeline/cli/fixture-entry.js */
export function distPath(rel: string): string {
  return resolve(DIST_DIR, 'pipeline', `${rel}.js`);
}

/** the package version, read from package.json */
export const VERSION: string = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export const DATASETS_DIR = resolve(REPO_ROOT, 'datasets');
/** the committed default corpus, its golden set and the reference proxy's own menu */
export const DEFAULT_CORPUS = resolve(DATASETS_DIR, 'corpus-npm4-v1.tools.json');
export const DEFAULT_GOLDEN = resolve(DATASETS_DIR, 'golden-npm4-v2.json');
export const DEFAULT_DISCOVERY_MENU = resolve(DATASETS_DIR, 'proxy-menu-v1.tools.json');
/** the committed tool-result fixtures the result arms run on (mcpgauge corpus freeze-results) */
export const DEFAULT_RESULT_FIXTURES = resolve(DATASETS_DIR, 'results-reference-v1.json');
/**
 * default output folder of `bench`, relative to the working directory (like the gate's
 * `results/gate`): results belong to the user's project, never to the installed package
 */
export const DEFAULT_BENCH_OUT = 'results/discovery';

/** true when this is an installed package (npm, npx, a global install), not a source checkout */
export const INSTALLED = REPO_ROOT.split(sep).includes('node_modules');

/**
 * Where caches go (fetched models, the LAP venv, fetched corpora, compiled schemas and charts,
 * the tokenizers' rank tables, embeddings, peer tools): `$MCPGAUGE_CACHE_DIR` when set; else `.cache/` of the source
 * checkout when this runs from a clone; else, for an installed package, `$XDG_CACHE_HOME/mcpgauge`
 * (default `~/.cache/mcpgauge`), so a reinstall keeps them and a global install needs no write
 * access to the npm prefix. Resolved once at start.
 */
export const CACHE_ROOT = cacheRoot(process.env, INSTALLED);

export function cacheRoot(env: NodeJS.ProcessEnv, installed: boolean): string {
  if (env.MCPGAUGE_CACHE_DIR) return resolve(env.MCPGAUGE_CACHE_DIR);
  if (!installed) return resolve(REPO_ROOT, '.cache');
  const xdg = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : resolve(env.HOME || homedir(), '.cache');
  return resolve(xdg, 'mcpgauge');
}
/** dashboard template, page script and chart specs */
export const TEMPLATE_DIR = `${resolve(REPO_ROOT, 'reports-template')}/`;

/** every tokenizer mcpgauge counts with, in report order */
export const TOKENIZER_NAMES = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

/** calls per session in the session estimates (offline and live) */
export const SESSION_CALLS: readonly number[] = Object.freeze([1, 3, 5, 10]);

/** the arm every saving is measured against */
export const BASELINE_ARM_ID = 'baseline_json';
