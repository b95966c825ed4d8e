/**
 * `corpus freeze`: boot real MCP servers over stdio, page through tools/list, canonicalize and
 * write a new versioned frozen corpus file (datasets/<version>.tools.json). Never overwrites.
 *
 * Determinism: no timestamps; tools sorted by tool_id; run-specific text (the temp folder given
 * to the filesystem server, the temp MEMORY_FILE_PATH of the memory server, the absolute repo
 * path) is replaced by placeholders wherever it appears in a description, schema or annotation,
 * and the replacement counts are recorded in generated_from. Wire fields a ToolRecord does not
 * carry (title, outputSchema, execution, ...) are listed in generated_from.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { connectMcp, describeTarget, type McpTarget, type WireTool } from '../mcp/client.ts';
import { UserError, type JsonValue, type ToolRecord } from '../types.ts';
import { DATASETS_DIR, REPO_ROOT } from '../constants.ts';
import { VERSION_RE, serializeFrozen } from './frozen.ts';
import { makeTool, sortUnique } from './record.ts';

export interface FreezeContext {
  /** temp folder for this run (filesystem root, memory file) */
  tmp: string;
}

export interface FreezeServerSpec {
  /** server name used in tool ids (the live stage and the proxy use the same names) */
  name: string;
  /** npm package providing the server */
  package: string;
  /** entry file inside the package */
  entry: string;
  args: (ctx: FreezeContext) => string[];
  env?: (ctx: FreezeContext) => Record<string, string>;
  /** run-specific values -> placeholder text */
  placeholders: (ctx: FreezeContext) => Array<[string, string]>;
}

export const allowedDir = (ctx: FreezeContext) => join(ctx.tmp, 'allowed');
export const memoryFile = (ctx: FreezeContext) => join(ctx.tmp, 'memory.jsonl');

/** The four npm reference servers, in the order they are booted. */
export const NPM4_SERVERS: FreezeServerSpec[] = [
  {
    name: 'filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    entry: 'dist/index.js',
    args: (ctx) => [allowedDir(ctx)],
    placeholders: (ctx) => [[allowedDir(ctx), '<ALLOWED_DIR>']],
  },
  {
    name: 'memory',
    package: '@modelcontextprotocol/server-memory',
    entry: 'dist/index.js',
    args: () => [],
    env: (ctx) => ({ MEMORY_FILE_PATH: memoryFile(ctx) }),
    placeholders: (ctx) => [[memoryFile(ctx), '<MEMORY_FILE>']],
  },
  {
    name: 'sequential-thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    entry: 'dist/index.js',
    args: () => [],
    placeholders: () => [],
  },
  {
    name: 'everything',
    package: '@modelcontextprotocol/server-everything',
    entry: 'dist/index.js',
    args: () => ['stdio'],
    placeholders: () => [],
  },
];

export interface FreezeOptions {
  /** e.g. "corpus-npm4-v1"; the file is <outDir>/<version>.tools.json */
  version: string;
  /** default: the repo's datasets/ */
  outDir?: string;
  /** also freeze the project's fixture (server name "fixture") */
  withFixture?: boolean;
  /** per-request timeout for connect and tools/list (default 30 s) */
  timeoutMs?: number;
  /** progress lines (default: none) */
  log?: (line: string) => void;
}

export interface FreezeResult {
  path: string;
  version: string;
  tool_count: number;
  servers: Array<{ name: string; tool_count: number }>;
  /** why optional servers were left out */
  skipped: string[];
  tools_sha256: string;
}

export function corpusFilePath(outDir: string, version: string): string {
  return join(outDir, `${version}.tools.json`);
}

/** The next unused `<stem>-vN` in `dir` (N starts at 1), for files named `<stem>-vN<suffix>`. */
export function nextFreeVersion(dir: string, stem: string, suffix = '.tools.json'): string {
  let max = 0;
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^${esc(stem)}-v(\\d+)${esc(suffix)}$`);
  if (existsSync(dir))
    for (const n of readdirSync(dir)) {
      const m = re.exec(n);
      if (m) max = Math.max(max, Number(m[1]));
    }
  return `${stem}-v${max + 1}`;
}

export function packageInfo(pkg: string): { version: string; license: string; dir: string } {
  const dir = join(REPO_ROOT, 'node_modules', ...pkg.split('/'));
  try {
    const j = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license?: string };
    return { version: j.version, license: j.license ?? 'unstated', dir };
  } catch (e) {
    throw new UserError(
      `freeze: package ${pkg} is not installed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); run npm ci`,
    );
  }
}

/** Replace every occurrence of each run-specific value in every string of `v`. */
export function normalizeStrings(v: unknown, subs: Array<[string, string]>, counts: Map<string, number>): unknown {
  if (typeof v === 'string') {
    let s = v;
    for (const [from, to] of subs) {
      if (!from || !s.includes(from)) continue;
      counts.set(to, (counts.get(to) ?? 0) + s.split(from).length - 1);
      s = s.split(from).join(to);
    }
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => normalizeStrings(x, subs, counts));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[normalizeStrings(k, subs, counts) as string] = normalizeStrings(x, subs, counts);
    return out;
  }
  return v;
}

/** Also match the resolved form of temp paths (/tmp may be a symlink, e.g. on macOS). */
export function withRealpaths(subs: Array<[string, string]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [from, to] of subs) {
    out.push([from, to]);
    try {
      const real = realpathSync(from);
      if (real !== from) out.push([real, to]);
    } catch {
      /* file not created by the server: nothing to resolve */
    }
  }
  // longest first so a path is replaced before any of its prefixes
  return out.sort((a, b) => b[0].length - a[0].length);
}

interface Collected {
  tools: Array<{ rec: ToolRecord; path: string }>;
  info: { [k: string]: JsonValue };
}

async function collect(
  name: string,
  target: McpTarget,
  subsIn: Array<[string, string]>,
  timeoutMs: number,
  meta: { [k: string]: JsonValue },
): Promise<Collected> {
  let conn;
  try {
    conn = await connectMcp(target, { timeoutMs, protocol: 'legacy', clientName: 'mcpgauge-freeze' });
  } catch (e) {
    throw new UserError(`freeze: server ${name}: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    let wire: WireTool[];
    try {
      wire = await conn.listAllTools({ timeoutMs });
    } catch (e) {
      throw new UserError(`freeze: server ${name} (${describeTarget(target)}): tools/list failed: ${(e as Error).message.split('\n')[0]}`);
    }
    const subs = withRealpaths(subsIn);
    const counts = new Map<string, number>();
    const dropped = new Set<string>();
    let missingDescription = 0;
    const tools = wire.map((w, i) => {
      for (const k of Object.keys(w)) if (!['name', 'description', 'inputSchema', 'annotations'].includes(k)) dropped.add(k);
      if (typeof w.description !== 'string') missingDescription++;
      const norm = normalizeStrings(
        { description: w.description ?? '', inputSchema: w.inputSchema, annotations: w.annotations },
        subs,
        counts,
      ) as Record<string, unknown>;
      const path = `${name} tools/list [${i}]`;
      return {
        rec: makeTool(
          { server: name, tool: w.name, description: norm.description, inputSchema: norm.inputSchema, annotations: norm.annotations },
          `freeze:${name}`,
          `$[${i}]`,
        ),
        path,
      };
    });
    const sv = conn.client.getServerVersion();
    const info: { [k: string]: JsonValue } = {
      ...meta,
      name,
      server_info: sv ? { name: sv.name, version: sv.version } : null,
      protocol_version: conn.protocolVersion ?? null,
      tool_count: tools.length,
      dropped_wire_fields: [...dropped].sort(),
      missing_descriptions: missingDescription,
      normalized: [...new Set(subsIn.map(([, to]) => to))].sort().map((p) => ({ placeholder: p, replacements: counts.get(p) ?? 0 })),
    };
    return { tools, info };
  } finally {
    await conn.close();
  }
}

/** Write `text` to `path` atomically, refusing to replace an existing file (even in a race). */
export function writeExclusiveAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path))
    throw new UserError(
      `${path}: already exists; frozen versions are immutable, choose a new version (e.g. --version ${bumpVersion(basename(path).replace(/\.tools\.json$/, ''))})`,
    );
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, path); // fails with EEXIST instead of replacing
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UserError(`${path}: already exists; frozen versions are immutable, choose a new version`);
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function bumpVersion(v: string): string {
  const m = /^(.*-v)(\d+)$/.exec(v);
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${v}-v2`;
}

/** The fixture launcher module, as far as freeze uses it. */
type FixtureLauncher = { fixtureStdioTarget?: (args?: string[], env?: Record<string, string>) => McpTarget | Promise<McpTarget> };

/** Imports the fixture launcher (when asked to), recording why it is skipped if it cannot be used. */
async function loadFixtureLauncher(
  withFixture: boolean | undefined,
  log: (line: string) => void,
): Promise<{ mod: FixtureLauncher | undefined; skipped: string[] }> {
  let mod: FixtureLauncher | undefined;
  const skipped: string[] = [];
  if (withFixture) {
    // a literal relative specifier: the build rewrites it, so the compiled CLI loads the compiled launcher
    try {
      mod = (await import('../fixture/launch.ts')) as typeof mod;
    } catch (e) {
      skipped.push(`fixture: cannot import pipeline/fixture/launch.ts (${(e as Error).message.split('\n')[0]})`);
    }
    if (mod && typeof mod.fixtureStdioTarget !== 'function') {
      skipped.push('fixture: pipeline/fixture/launch.ts does not export fixtureStdioTarget()');
      mod = undefined;
    }
    for (const s of skipped) log(`freeze: skipped ${s}`);
  }
  return { mod, skipped };
}

/** Boots one npm reference server over stdio and collects its tools, with run-specific paths shown as placeholders. */
async function collectNpmServer(
  s: FreezeServerSpec,
  ctx: FreezeContext,
  timeoutMs: number,
  log: (line: string) => void,
  licenses: Set<string>,
): Promise<Collected> {
  const pkg = packageInfo(s.package);
  licenses.add(pkg.license);
  const entry = join(pkg.dir, s.entry);
  const target: McpTarget = {
    kind: 'stdio',
    command: process.execPath,
    args: [entry, ...s.args(ctx)],
    env: s.env?.(ctx) ?? {},
    cwd: REPO_ROOT,
  };
  const subs: Array<[string, string]> = [...s.placeholders(ctx), [ctx.tmp, '<TMP>']];
  const shownArgs = [`node_modules/${s.package}/${s.entry}`, ...s.args(ctx)].map((a) =>
    a.replace(allowedDir(ctx), '<ALLOWED_DIR>').replace(memoryFile(ctx), '<MEMORY_FILE>'),
  );
  const shownEnv = Object.fromEntries(Object.entries(s.env?.(ctx) ?? {}).map(([k, v]) => [k, v.replace(memoryFile(ctx), '<MEMORY_FILE>')]));
  log(`freeze: ${s.name} (${s.package}@${pkg.version})`);
  const got = await collect(s.name, target, subs, timeoutMs, {
    package: s.package,
    package_version: pkg.version,
    package_license: pkg.license,
    command: ['node', ...shownArgs].join(' '),
    env: shownEnv,
  });
  log(`freeze: ${s.name}: ${got.tools.length} tools`);
  return got;
}

/** Boots this project's fixture server through its launcher and collects its tools. */
async function collectFixture(
  fixtureStdioTarget: NonNullable<FixtureLauncher['fixtureStdioTarget']>,
  tmp: string,
  timeoutMs: number,
  log: (line: string) => void,
  licenses: Set<string>,
): Promise<Collected> {
  const target = await fixtureStdioTarget();
  const shown =
    target.kind === 'stdio'
      ? ['node', ...(target.args ?? [])].map((a) => a.split(REPO_ROOT + '/').join('')).join(' ')
      : describeTarget(target);
  log('freeze: fixture');
  const pj = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
  licenses.add(`${pj.license ?? 'unstated'} (fixture: this project)`);
  const got = await collect(
    'fixture',
    target,
    [
      [REPO_ROOT, '<REPO>'],
      [tmp, '<TMP>'],
    ],
    timeoutMs,
    {
      package: pj.name,
      package_version: pj.version,
      package_license: pj.license ?? 'unstated',
      command: shown,
      env: {},
    },
  );
  log(`freeze: fixture: ${got.tools.length} tools`);
  return got;
}

/** Serializes the frozen corpus file: metadata (license, provenance, normalization) plus the sorted tools. */
function serializeCorpus(
  version: string,
  names: string[],
  licenses: Set<string>,
  serversInfo: JsonValue[],
  skipped: string[],
  tools: ToolRecord[],
): string {
  return serializeFrozen({
    version,
    name: `MCP reference servers over stdio: ${names.join(', ')}`,
    license:
      [...licenses].length === 1
        ? `${[...licenses][0]} (as declared by each @modelcontextprotocol/server-* package.json; github.com/modelcontextprotocol/servers)`
        : `per package: ${[...licenses].join('; ')}`,
    attribution:
      'Tool definitions captured over MCP stdio from the reference servers published by the Model Context Protocol project (@modelcontextprotocol/server-*)',
    generated_from: {
      generator: 'mcpgauge corpus freeze',
      transport: 'stdio',
      client: {
        protocol: 'legacy initialize handshake',
        capabilities: {},
        note: 'server-everything registers some tools only for clients that declare sampling/elicitation/roots: frozen with no client capabilities declared',
      },
      servers: serversInfo,
      normalization:
        'run-specific text replaced by placeholders in descriptions, schemas and annotations: <ALLOWED_DIR> = temp folder given to the filesystem server, <MEMORY_FILE> = temp MEMORY_FILE_PATH of the memory server, <TMP> = the run temp folder, <REPO> = absolute repo path; per-server counts in servers[].normalized',
      skipped,
    },
    tools,
  });
}

export async function freezeCorpus(opts: FreezeOptions): Promise<FreezeResult> {
  const log = opts.log ?? (() => {});
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (!VERSION_RE.test(opts.version))
    throw new UserError(`--version ${JSON.stringify(opts.version)}: must match ${VERSION_RE} (e.g. corpus-npm4-v2)`);
  const outDir = resolve(opts.outDir ?? DATASETS_DIR);
  const out = corpusFilePath(outDir, opts.version);
  if (existsSync(out))
    throw new UserError(
      `${out}: already exists; frozen versions are immutable, choose a new version (e.g. --version ${bumpVersion(opts.version)})`,
    );

  // resolve the fixture first, so a missing or broken launcher is reported before anything boots
  const { mod, skipped } = await loadFixtureLauncher(opts.withFixture, log);

  const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-freeze-'));
  const ctx: FreezeContext = { tmp };
  mkdirSync(allowedDir(ctx), { recursive: true });
  const all: Array<{ rec: ToolRecord; path: string }> = [];
  const serversInfo: JsonValue[] = [];
  const licenses = new Set<string>();
  const perServer: Array<{ name: string; tool_count: number }> = [];
  try {
    for (const s of NPM4_SERVERS) {
      const got = await collectNpmServer(s, ctx, timeoutMs, log, licenses);
      all.push(...got.tools);
      serversInfo.push(got.info);
      perServer.push({ name: s.name, tool_count: got.tools.length });
    }
    if (opts.withFixture) {
      if (mod?.fixtureStdioTarget) {
        const got = await collectFixture(mod.fixtureStdioTarget, tmp, timeoutMs, log, licenses);
        all.push(...got.tools);
        serversInfo.push(got.info);
        perServer.push({ name: 'fixture', tool_count: got.tools.length });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const tools = sortUnique(all, 'freeze');
  const names = perServer.map((p) => p.name);
  const text = serializeCorpus(opts.version, names, licenses, serversInfo, skipped, tools);
  writeExclusiveAtomic(out, text);
  const parsed = JSON.parse(text) as { tools_sha256: string };
  return { path: out, version: opts.version, tool_count: tools.length, servers: perServer, skipped, tools_sha256: parsed.tools_sha256 };
}
