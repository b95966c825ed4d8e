/**
 * The digests every gate fragment carries, so that `gate merge` can refuse fragments of another
 * proxy build, another config or other run options (pipeline/gate/README.md, Fragments):
 *
 * - config: sha256 of the gate config file's JSON in canonical form (keys sorted, no whitespace),
 *   so formatting and key order do not matter, any value does.
 * - proxy: sha256 of the canonical JSON of `{spec, build}`. `spec` is how the proxy is started or
 *   reached (command template, URL template, the config template's content hash; never an API key).
 *   `build` is a tree digest of the files that make up the proxy: the mcpgauge package itself
 *   (bin/, pipeline/, package.json, package-lock.json) when the command runs `{MCPGAUGE}` (the
 *   reference proxy), the paths given with `--proxy-build` otherwise, or nothing ("unidentified":
 *   then only the same command and templates can be told apart).
 * - options: sha256 of the canonical JSON of the options that change a cell's result: client
 *   protocol, the adapter options, the baseline file's content hash and `--repeat` N when N > 1.
 * - gate: the tree digest of the mcpgauge package (the gate's own steps and renderers); the merge
 *   also compares it with its own, so a report is never assembled by other code than measured it.
 * - results: the fragment's own content (resultsDigest), recomputed by the merge: a verdict
 *   edited after the run without recomputing it is refused. None of these is a signature.
 *
 * A tree digest lists every file under the given roots (folders walked recursively, skipping
 * node_modules and .git), sorted by path relative to `base`, as "path NUL sha256(content) LF",
 * and hashes that list.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { listFilesSorted } from '../util/fs.ts';
import { relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import type { AdapterOptions, ProxySpec } from '../adapter/index.ts';
import { harnessError } from './config.ts';

/** the package root with a trailing separator (compiled or from sources: constants.ts REPO_ROOT) */
export const PACKAGE_ROOT = `${REPO_ROOT}${sep}`;
/** What the reference proxy's build digest covers (relative to the package root). */
export const PACKAGE_BUILD_PATHS = ['bin', 'pipeline', 'arms', 'package.json', 'package-lock.json'] as const;
const SKIP = new Set(['node_modules', '.git']);

export type Digest = `sha256:${string}`;

export function sha256(data: string | Uint8Array): Digest {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** JSON with object keys sorted at every level and no whitespace. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

function walk(path: string, out: string[]): void {
  out.push(...listFilesSorted(path, { skip: (name) => SKIP.has(name) }));
}

/** Tree digest of files and folders (see the header); `what` names the option in errors. */
export function treeDigest(roots: readonly string[], base: string, what: string): { digest: Digest; files: number } {
  const files: string[] = [];
  for (const r of roots) {
    const abs = resolve(base, r);
    try {
      walk(abs, files);
    } catch (e) {
      throw harnessError(`${what} ${r}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  const lines = [...new Set(files)]
    .map((f) => ({ rel: relative(base, f).split(sep).join('/'), f }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .map(({ rel, f }) => `${rel}\0${sha256(readFileSync(f)).slice(7)}\n`);
  return { digest: sha256(lines.join('')), files: lines.length };
}

function fileDigest(path: string | undefined, what: string): Digest | null {
  if (path === undefined) return null;
  try {
    return sha256(readFileSync(path));
  } catch (e) {
    throw harnessError(`${what} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

export interface ProxyBuild {
  source: 'mcpgauge package' | '--proxy-build' | 'unidentified';
  files: number;
}

export function proxyDigest(spec: ProxySpec, proxyBuild: readonly string[] | undefined): { digest: Digest; build: ProxyBuild } {
  const shape =
    spec.kind === 'url'
      ? { kind: 'url', url: spec.url }
      : {
          kind: 'command',
          command: spec.command,
          url: spec.url ?? null,
          config_template: fileDigest(spec.configTemplate, 'proxy config template'),
        };
  let build: ProxyBuild = { source: 'unidentified', files: 0 };
  let tree: Digest | null = null;
  if (proxyBuild?.length) {
    const t = treeDigest(proxyBuild, process.cwd(), '--proxy-build');
    build = { source: '--proxy-build', files: t.files };
    tree = t.digest;
  } else if (spec.kind === 'command' && spec.command.includes('{MCPGAUGE}')) {
    const t = treeDigest(PACKAGE_BUILD_PATHS, PACKAGE_ROOT, 'the mcpgauge package');
    build = { source: 'mcpgauge package', files: t.files };
    // the same tree as packageDigest()
    tree = t.digest;
  }
  return { digest: sha256(canonicalJson({ spec: shape, build: { source: build.source, tree } })), build };
}

/** The mcpgauge package's own tree digest (the `gate` digest; also the reference proxy's build). */
export function packageDigest(): Digest {
  return treeDigest(PACKAGE_BUILD_PATHS, PACKAGE_ROOT, 'the mcpgauge package').digest;
}

/**
 * The results digest of a gate fragment: sha256 of the canonical JSON of the whole fragment as
 * it is written (its JSON form), without `digests.results` itself, i.e. the cell's report or the
 * yardstick's grade, the exit code, the id and the other digests. Not a signature: whoever edits
 * a fragment and recomputes this passes; it catches a truncated or edited file, not a forger.
 */
export function resultsDigest(fragment: { digests: object }): Digest {
  const f = JSON.parse(JSON.stringify(fragment)) as { digests: Record<string, unknown> };
  delete f.digests.results;
  return sha256(canonicalJson(f));
}

export function configDigest(raw: unknown): Digest {
  return sha256(canonicalJson(raw));
}

export function optionsDigest(o: { clientProtocol: string; adapter: AdapterOptions; baselineFile?: string; repeat?: number }): Digest {
  // --repeat N > 1 only (N = 1 keeps the digest of a run without the flag): fragments of different N do not merge
  const repeat = (o.repeat ?? 1) > 1 ? { repeat: o.repeat } : {};
  return sha256(
    canonicalJson({ client_protocol: o.clientProtocol, adapter: o.adapter, baseline: fileDigest(o.baselineFile, '--baseline'), ...repeat }),
  );
}
