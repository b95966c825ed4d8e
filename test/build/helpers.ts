/** Which modules a spawned mcpgauge process loads: a resolve hook (module.register) records every URL. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Loaded {
  code: number | null;
  stdout: string;
  stderr: string;
  /** every module URL the process (and its hooks thread) resolved, node: builtins left out */
  urls: string[];
}

/** `node --import <recorder> ...argv`, returning the loaded module URLs. */
export async function loadedModules(
  argv: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Loaded> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-loads-'));
  try {
    const log = join(dir, 'loaded.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); if (!r.url.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
    );
    // the light bundles load through vm.Script (bin/dist-entry.mjs requireLight), which no module hook sees: they trace themselves
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, ...argv], {
      env: { ...(opts.env ?? process.env), MCPGAUGE_TRACE_LOADS: log },
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const t = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
    clearTimeout(t);
    const urls = existsSync(log) ? [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] : [];
    return { code, stdout, stderr, urls };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the npm package a node_modules URL belongs to, else null */
export function packageOf(url: string): string | null {
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return m ? m[1] : null;
}

/**
 * the npm packages the loaded URLs hold: packageOf for node_modules files, and for the bundled
 * CLI's chunks (dist/bundle/*.js) the packages scripts/lib/bundle.mjs bundled into each (BUNDLE.json)
 */
export function packagesLoaded(urls: readonly string[]): Set<string> {
  const out = new Set<string>();
  const maps = new Map<string, Record<string, string[]>>();
  for (const u of urls) {
    const p = packageOf(u);
    if (p) out.add(p);
    const m = /^(file:\/\/.*\/dist\/bundle\/)([^/]+\.js)$/.exec(u);
    if (!m) continue;
    if (!maps.has(m[1])) maps.set(m[1], JSON.parse(readFileSync(new URL('BUNDLE.json', m[1]), 'utf8')) as Record<string, string[]>);
    for (const q of maps.get(m[1])![m[2]] ?? []) out.add(q);
  }
  return out;
}

/**
 * A light bundle's chunks among the loaded URLs (`dir` = dist/fixture-bundle, dist/proxy-bundle, dist/comply-bundle),
 * its BUNDLE.json (per chunk: the dist/pipeline/ modules and npm packages bundled in) and the
 * modules of the chunks that loaded.
 */
export function lightBundleLoads(
  urls: readonly string[],
  dir: string,
): { chunks: string[]; map: Record<string, { packages: string[]; modules: string[] }>; ours: string[] } {
  const tail = `/${dir.split('/').slice(-2).join('/')}/`;
  const chunks = urls.filter((u) => u.includes(tail)).map((u) => u.slice(u.lastIndexOf('/') + 1).replace(/#.*$/, ''));
  const map = JSON.parse(readFileSync(join(dir, 'BUNDLE.json'), 'utf8')) as Record<string, { packages: string[]; modules: string[] }>;
  return { chunks, map, ours: chunks.flatMap((c) => map[c]?.modules ?? []) };
}
