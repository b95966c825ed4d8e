/**
 * `corpus freeze-results`: boot the npm reference servers and the project's fixture over stdio
 * (the one MCP client), run the capture plan (plan.ts) on the seed data the project ships, and
 * write a new versioned result fixture file. Never overwrites.
 *
 * Determinism: the seed folder is copied to a temp folder with fixed modes and times; every run
 * starts fresh server processes; run-specific text (temp paths, repo path, host name, clock
 * readings, per-process ids) is replaced by placeholders; no timestamps are written. Listing
 * order inside a `directory_tree` is the order the host filesystem's readdir gives (the server
 * does not sort), so two captures on one machine are byte-identical, other filesystems may order
 * those entries differently.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { connectMcp, describeTarget, type CallResult, type McpConnection, type McpTarget } from '../mcp/client.ts';
import { sha256Hex } from '../corpus/canonical.ts';
import { DATASETS_DIR, REPO_ROOT } from '../constants.ts';
import {
  allowedDir,
  memoryFile,
  normalizeStrings,
  NPM4_SERVERS,
  packageInfo,
  withRealpaths,
  writeExclusiveAtomic,
  type FreezeContext,
} from '../corpus/freeze.ts';
import { fixtureStdioTarget } from '../fixture/launch.ts';
import { UserError, type JsonValue } from '../types.ts';
import {
  labelFixture,
  RESULTS_VERSION_RE,
  serializeResultFixtures,
  type PayloadFrom,
  type ResultFixture,
  type ReturnedShape,
} from './fixture-file.ts';
import { capturePlan, type CaptureCall, type CapturePlanEntry } from './plan.ts';
import {
  ALLOWED_DIR_PLACEHOLDER,
  copySeedFolder,
  fillPlaceholders,
  loadSeedGraph,
  SEED_FILES_DIR,
  SEED_GRAPH_FILE,
  seedFolderSha256,
} from './seed.ts';

export interface FreezeResultsOptions {
  /** e.g. "results-reference-v2"; the file is <outDir>/<version>.json */
  version: string;
  outDir?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface FreezeResultsResult {
  path: string;
  version: string;
  fixture_count: number;
  tabular_count: number;
  non_tabular_count: number;
  fixtures_sha256: string;
}

/** Clock readings a server may print: JS Date#toString and ISO-8601 timestamps. */
const CLOCK_PATTERNS: RegExp[] = [
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)]*\))?/g,
  /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})/g,
];
export const CLOCK_PLACEHOLDER = '<TIME>';
function stripClock(v: unknown): unknown {
  if (typeof v === 'string') return CLOCK_PATTERNS.reduce((s, re) => s.replace(re, CLOCK_PLACEHOLDER), v);
  if (Array.isArray(v)) return v.map(stripClock);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripClock(x)]));
  return v;
}

function replaceKeys(v: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => replaceKeys(x, keys));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keys.includes(k) ? `<${k.toUpperCase()}>` : replaceKeys(x, keys)]));
  }
  return v;
}

/**
 * The payload of a tool result (the documented payload rule):
 * - every block is text and the concatenated text parses as a JSON object or array: that value (`text_json`);
 * - every block is text otherwise: the concatenated text (`text`);
 * - any non-text block (resource link, resource, image): the `content` array as returned (`content`).
 */
export function payloadOf(r: CallResult): { payload: JsonValue; from: PayloadFrom; returned: ReturnedShape } {
  const blocks = r.content ?? [];
  const allText = blocks.length > 0 && blocks.every((b) => b.type === 'text' && typeof b.text === 'string');
  const text = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('');
  const returned: ReturnedShape = {
    content_types: blocks.map((b) => b.type),
    structured_content: r.structuredContent !== undefined,
    text_bytes: Buffer.byteLength(text, 'utf8'),
  };
  if (!allText) return { payload: blocks as unknown as JsonValue, from: 'content', returned };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === 'object') {
    returned.text_is_pretty_json = JSON.stringify(parsed, null, 2) === text;
    return { payload: parsed as JsonValue, from: 'text_json', returned };
  }
  return { payload: text, from: 'text', returned };
}

async function captureCall(
  conn: McpConnection,
  server: string,
  call: CaptureCall,
  subs: Readonly<Record<string, string>>,
  normSubs: Array<[string, string]>,
  timeoutMs: number,
): Promise<ResultFixture> {
  const id = `${server}:${call.tool}/${call.label}`;
  let res: CallResult;
  try {
    res = await conn.callTool(call.tool, fillPlaceholders(call.arguments, subs) as Record<string, unknown>, { timeoutMs });
  } catch (e) {
    throw new UserError(`freeze-results: ${id}: tools/call failed: ${(e as Error).message.split('\n')[0]}`);
  }
  if (res.isError)
    throw new UserError(`freeze-results: ${id}: the tool returned an error: ${JSON.stringify(res.content ?? []).slice(0, 300)}`);
  const normalized = stripClock(normalizeStrings(res, normSubs, new Map())) as CallResult;
  const { payload, from, returned } = payloadOf(normalized);
  const finalPayload = call.volatileKeys?.length ? (replaceKeys(payload, call.volatileKeys) as JsonValue) : payload;
  if (finalPayload !== payload && returned.text_is_pretty_json !== undefined)
    returned.text_is_pretty_json =
      JSON.stringify(finalPayload, null, 2) === JSON.stringify(payload, null, 2) && returned.text_is_pretty_json;
  return labelFixture({ id, server, tool: call.tool, arguments: call.arguments, payload_from: from, returned, payload: finalPayload });
}

/** Refuses an output path that already exists, before anything boots (writeExclusiveAtomic checks again at the end). */
function refuseExistingOutput(out: string): void {
  try {
    statSync(out);
    throw new UserError(`${out}: already exists; result fixture versions are immutable, choose a new version (or --next-version)`);
  } catch (e) {
    if (e instanceof UserError) throw e;
  }
}

/** How to boot one capture plan entry's server: its target, its provenance record and its own path placeholders. */
interface EntryTarget {
  target: McpTarget;
  info: { [k: string]: JsonValue };
  placeholders: Array<[string, string]>;
}

/** Resolves the stdio target and provenance of a plan entry's server (the fixture or an npm reference server), noting its license. */
function entryTarget(entry: CapturePlanEntry, ctx: FreezeContext, licenses: Set<string>): EntryTarget {
  let target: McpTarget;
  let info: { [k: string]: JsonValue };
  let placeholders: Array<[string, string]> = [];
  if (entry.server === 'fixture') {
    target = fixtureStdioTarget();
    const pj = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    licenses.add(`${pj.license ?? 'unstated'} (fixture: this project)`);
    info = { name: 'fixture', package: pj.name, package_version: pj.version, command: 'node bin/mcpfixture.mjs --transport stdio' };
  } else {
    const spec = NPM4_SERVERS.find((s) => s.name === entry.server);
    if (!spec) throw new Error(`capture plan names unknown server ${entry.server}`);
    const pkg = packageInfo(spec.package);
    licenses.add(pkg.license);
    target = {
      kind: 'stdio',
      command: process.execPath,
      args: [join(pkg.dir, spec.entry), ...spec.args(ctx)],
      env: spec.env?.(ctx) ?? {},
      cwd: REPO_ROOT,
    };
    placeholders = spec.placeholders(ctx);
    info = { name: spec.name, package: spec.package, package_version: pkg.version, package_license: pkg.license };
  }
  return { target, info, placeholders };
}

/** Connects to one plan entry's server, records its server info and captures each of its planned calls in order. */
async function captureEntry(
  entry: CapturePlanEntry,
  { target, info }: EntryTarget,
  argSubs: Readonly<Record<string, string>>,
  normSubs: Array<[string, string]>,
  timeoutMs: number,
  serversInfo: JsonValue[],
  fixtures: ResultFixture[],
): Promise<void> {
  let conn: McpConnection;
  try {
    conn = await connectMcp(target, { timeoutMs, protocol: 'legacy', clientName: 'mcpgauge-freeze-results' });
  } catch (e) {
    throw new UserError(`freeze-results: server ${entry.server} (${describeTarget(target)}): ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    const sv = conn.client.getServerVersion();
    serversInfo.push({
      ...info,
      server_info: sv ? { name: sv.name, version: sv.version } : null,
      protocol_version: conn.protocolVersion ?? null,
      calls: entry.calls.length,
    });
    for (const call of entry.calls) fixtures.push(await captureCall(conn, entry.server, call, argSubs, normSubs, timeoutMs));
  } finally {
    await conn.close();
  }
}

/** Serializes the result fixture file: provenance, seed hashes, payload/tabular/normalization rules, and the fixtures. */
function serializeResults(version: string, licenses: Set<string>, serversInfo: JsonValue[], fixtures: ResultFixture[]): string {
  return serializeResultFixtures({
    version,
    name: 'Tool-call results of the MCP reference servers and the mcpgauge fixture on shipped seed data',
    license: `outputs of: ${[...licenses].join('; ')}; seed data: this project`,
    attribution:
      "Captured over MCP stdio from @modelcontextprotocol/server-* (github.com/modelcontextprotocol/servers) and this project's fixture",
    generated_from: {
      generator: 'mcpgauge corpus freeze-results',
      transport: 'stdio',
      client: { protocol: 'legacy initialize handshake', capabilities: {} },
      servers: serversInfo,
      seed: {
        files: relative(REPO_ROOT, SEED_FILES_DIR),
        files_sha256: seedFolderSha256(),
        graph: relative(REPO_ROOT, SEED_GRAPH_FILE),
        graph_sha256: sha256Hex(readFileSync(SEED_GRAPH_FILE, 'utf8')),
      },
      payload_rule:
        'all-text result whose text parses as a JSON object/array: that value (text_json); other all-text result: the text (text); a result with any non-text block: the content array as returned (content)',
      tabular_rule:
        'tabular = a JSON array of >= 2 objects, each with >= 1 key, only primitive values (string, number, boolean, null), all with the same key set; anything else non_tabular',
      normalization:
        'placeholders: <ALLOWED_DIR> temp copy of the seed folder, <MEMORY_FILE> temp memory file, <TMP> run temp folder, <REPO> repo path, <HOST> host name, <TIME> clock readings (Date#toString, ISO-8601), <INSTANCE_ID> per-process ids; seed copy has modes 0755/0644 and times 2026-01-01T00:00:00Z; directory_tree order is the host readdir order',
    },
    fixtures,
  });
}

export async function freezeResults(opts: FreezeResultsOptions): Promise<FreezeResultsResult> {
  const log = opts.log ?? (() => {});
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (!RESULTS_VERSION_RE.test(opts.version))
    throw new UserError(`--version ${JSON.stringify(opts.version)}: must match ${RESULTS_VERSION_RE} (e.g. results-reference-v2)`);
  const outDir = resolve(opts.outDir ?? DATASETS_DIR);
  const out = join(outDir, `${opts.version}.json`);
  // refuse before booting anything (writeExclusiveAtomic checks again at the end)
  refuseExistingOutput(out);
  const graph = loadSeedGraph();
  const plan = capturePlan(graph);
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-results-'));
  const ctx: FreezeContext = { tmp };
  const fixtures: ResultFixture[] = [];
  const serversInfo: JsonValue[] = [];
  const licenses = new Set<string>();
  try {
    copySeedFolder(allowedDir(ctx));
    mkdirSync(tmp, { recursive: true });
    writeFileSync(memoryFile(ctx), '');
    const host = hostname();
    for (const entry of plan) {
      const resolved = entryTarget(entry, ctx, licenses);
      const argSubs = { [ALLOWED_DIR_PLACEHOLDER]: allowedDir(ctx) };
      const normSubs = withRealpaths([
        ...resolved.placeholders,
        [allowedDir(ctx), ALLOWED_DIR_PLACEHOLDER],
        [memoryFile(ctx), '<MEMORY_FILE>'],
        [tmp, '<TMP>'],
        [REPO_ROOT, '<REPO>'],
        ...(host.length >= 3 ? [[host, '<HOST>'] as [string, string]] : []),
      ]);
      log(`freeze-results: ${entry.server}: ${entry.calls.length} calls`);
      await captureEntry(entry, resolved, argSubs, normSubs, timeoutMs, serversInfo, fixtures);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const text = serializeResults(opts.version, licenses, serversInfo, fixtures);
  writeExclusiveAtomic(out, text);
  const parsed = JSON.parse(text) as { fixtures_sha256: string; tabular_count: number; non_tabular_count: number };
  return {
    path: out,
    version: opts.version,
    fixture_count: fixtures.length,
    tabular_count: parsed.tabular_count,
    non_tabular_count: parsed.non_tabular_count,
    fixtures_sha256: parsed.fixtures_sha256,
  };
}
