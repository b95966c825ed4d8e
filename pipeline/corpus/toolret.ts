/**
 * ToolRet (mangopy/ToolRet-Tools + mangopy/ToolRet-Queries) parquet shards -> Corpus + GoldenSet.
 * License unstated upstream: runtime fetch only, never committed.
 *
 * Folder layout (what `corpus fetch` caches, and what a mirror holds under toolret/):
 *   <dir>/tools/<config>/<shard>.parquet     columns: id, documentation
 *   <dir>/queries/<config>/<shard>.parquet   columns: id, query, instruction?, labels
 * The config is the first path component under tools/ or queries/ (a shard directly inside
 * tools/ gets config "toolret"). `labels` is a JSON string (or a list) of {id, relevance?, doc?};
 * bare NaN inside it (seen upstream in `doc`) is tolerated.
 *
 * Mapping:
 * - tool -> {tool_id: "<config>:<id>", server: config, tool: id, description: documentation}
 *   (documentation is opaque text; no schema). Missing id, blank documentation -> error.
 *   The same id in two configs with identical documentation is kept once (first config in
 *   code-point order) and counted; with different documentation it is an error.
 * - query -> GoldenQuery {id, query, labels}: duplicate or missing id -> error; blank query text
 *   -> dropped and counted; a label naming no tool -> error ("revisions out of sync?"); relevance
 *   defaults to 1, must be an integer 0..3; labels below 1 are dropped (upstream 0 is "not
 *   relevant", not a curated hard negative); a query left without labels is dropped and counted.
 *   `instruction` is read but not used (only the query text is scored).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { UserError, type Corpus, type GoldenQuery, type GoldenSet, type ToolRecord } from '../types.ts';
import { compareIds, fail, isPlainObject, parseJsonLenient } from './record.ts';
import { isCommittedPath } from './frozen.ts';
import { manifestRevision } from './manifest.ts';
import { assertInputFile, listFilesSorted } from '../util/fs.ts';

export const TOOLRET_TOOLS_REPO = 'mangopy/ToolRet-Tools';
export const TOOLRET_TOOLS_REVISION = 'e06c38c75612b6536bd959e08cdd345894aba6a7';
export const TOOLRET_QUERIES_REPO = 'mangopy/ToolRet-Queries';
export const TOOLRET_QUERIES_REVISION = 'b8c76ad3349ff17497b6bdb28bb5b8f61a0f6445';
export const TOOLRET_LICENSE = 'unstated upstream (runtime fetch only; never committed)';

export interface ToolRetLoadInfo {
  tools_revision: string;
  queries_revision: string;
  tool_shards: number;
  query_shards: number;
  tool_rows: number;
  duplicate_tools_collapsed: number;
  query_rows: number;
  dropped_empty_queries: number;
  dropped_unscoreable: number;
  dropped_labels_below_1: number;
}

export interface ToolRetLoad {
  corpus: Corpus;
  golden: GoldenSet;
  info: ToolRetLoadInfo;
}

function isToolRetRoot(dir: string): boolean {
  return existsSync(join(dir, 'tools')) && existsSync(join(dir, 'queries')) && statSync(join(dir, 'tools')).isDirectory();
}

/** A folder with tools/ and queries/, or a folder with exactly one such child. */
export function resolveToolRetDir(dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UserError(`${dir}: not a folder (ToolRet expects a folder with tools/ and queries/ parquet shards)`);
  if (isToolRetRoot(dir)) return dir;
  const kids = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory() && isToolRetRoot(join(dir, n)));
  if (kids.length === 1) return join(dir, kids[0]);
  throw new UserError(
    `${dir}: expected tools/ and queries/ parquet folders${kids.length ? ` (several candidates: ${kids.join(', ')})` : ''}`,
  );
}

export function looksLikeToolRetDir(dir: string): boolean {
  try {
    resolveToolRetDir(dir);
    return true;
  } catch {
    return false;
  }
}

type ToolRetShard = { path: string; config: string };

function listShards(root: string): ToolRetShard[] {
  // FIFOs and sockets too: a shard that is not a regular file is refused by name when it is read
  const out = listFilesSorted(root, { special: true })
    .filter((p) => p.endsWith('.parquet'))
    .map((p) => {
      const rel = relative(root, p).split(sep);
      return { path: p, config: rel.length > 1 ? rel[0] : 'toolret' };
    });
  return out.sort((a, b) => compareIds(a.path, b.path));
}

async function readShard(path: string, need: string[], optional: string[]): Promise<Record<string, unknown>[]> {
  let file;
  let metadata;
  // a regular file within the input size limit, checked before hyparquet opens it (a FIFO would block)
  assertInputFile(path, 'a parquet file');
  // loaded with the first shard: the fixture's and the proxy's bundles keep it out (scripts/lib/bundle.mjs)
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import('hyparquet');
  try {
    file = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw new UserError(`${path}: $: not a readable parquet file (${(e as Error).message})`);
  }
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  for (const n of need) if (!names.includes(n)) fail(path, '$.columns', `missing column ${JSON.stringify(n)} (has ${names.join(', ')})`);
  const columns = [...need, ...optional.filter((n) => names.includes(n))];
  try {
    return (await parquetReadObjects({ file, metadata, columns })) as Record<string, unknown>[];
  } catch (e) {
    throw new UserError(`${path}: $: cannot decode parquet rows (${(e as Error).message})`);
  }
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return undefined;
}

/** the tools of every shard, one record per id (first config wins; the same id with other documentation fails) */
async function readTools(toolShards: ToolRetShard[]) {
  const byId = new Map<string, { rec: ToolRecord; where: string }>();
  let toolRows = 0;
  let collapsed = 0;
  // configs in code-point order so "first config wins" is deterministic
  const shardsByConfig = [...toolShards].sort((a, b) => compareIds(a.config, b.config) || compareIds(a.path, b.path));
  for (const shard of shardsByConfig) {
    const rows = await readShard(shard.path, ['id', 'documentation'], []);
    rows.forEach((row, i) => {
      toolRows++;
      const id = str(row.id);
      if (id === undefined || id.trim() === '')
        fail(shard.path, `$[${i}].id`, `tool id must be a non-empty string, got ${JSON.stringify(row.id) ?? 'nothing'}`);
      let doc: unknown = row.documentation;
      if (doc !== null && typeof doc === 'object' && !(doc instanceof Uint8Array)) doc = JSON.stringify(doc);
      const documentation = str(doc);
      if (documentation === undefined || documentation.trim() === '')
        fail(shard.path, `$[${i}].documentation`, `tool ${JSON.stringify(id)} has blank documentation`);
      const where = `${shard.path} $[${i}]`;
      const prev = byId.get(id);
      if (prev) {
        if (prev.rec.description !== documentation)
          fail(shard.path, `$[${i}].documentation`, `tool id ${JSON.stringify(id)} also at ${prev.where} with different documentation`);
        collapsed++;
        return;
      }
      byId.set(id, { rec: { tool_id: `${shard.config}:${id}`, server: shard.config, tool: id, description: documentation }, where });
    });
  }
  const tools = [...byId.values()].map((x) => x.rec).sort((a, b) => compareIds(a.tool_id, b.tool_id));
  const toolIdOf = new Map([...byId.entries()].map(([id, x]) => [id, x.rec.tool_id]));
  return { tools, toolIdOf, toolRows, collapsed };
}

/** the scoreable queries of every shard, labels mapped to tool ids (a label naming no tool is collected, not thrown) */
async function readQueries(queryShards: ToolRetShard[], toolIdOf: Map<string, string>) {
  const queries: GoldenQuery[] = [];
  const seenQ = new Map<string, string>();
  let queryRows = 0;
  let droppedEmpty = 0;
  let droppedUnscoreable = 0;
  let droppedLabels = 0;
  const unknown: string[] = [];
  let unknownFirst = '';
  for (const shard of queryShards) {
    const rows = await readShard(shard.path, ['id', 'query', 'labels'], ['instruction']);
    rows.forEach((row, i) => {
      queryRows++;
      const p = `$[${i}]`;
      const id = str(row.id);
      if (id === undefined || id.trim() === '')
        fail(shard.path, `${p}.id`, `query id must be a non-empty string, got ${JSON.stringify(row.id) ?? 'nothing'}`);
      const prev = seenQ.get(id);
      if (prev) fail(shard.path, `${p}.id`, `duplicate query id ${JSON.stringify(id)} (first at ${prev})`);
      seenQ.set(id, `${shard.path} ${p}`);
      const text = str(row.query);
      if (text === undefined || text.trim() === '') {
        droppedEmpty++;
        return;
      }
      let labels: unknown = row.labels;
      const ls = str(labels);
      if (ls !== undefined) {
        try {
          labels = parseJsonLenient(ls);
        } catch (e) {
          fail(shard.path, `${p}.labels`, `query ${JSON.stringify(id)}: labels is not valid JSON (${(e as Error).message})`);
        }
      }
      if (!Array.isArray(labels))
        fail(
          shard.path,
          `${p}.labels`,
          `query ${JSON.stringify(id)}: labels must be a list of {id, relevance}, got ${labels === null ? 'null' : typeof labels}`,
        );
      const out = new Map<string, number>();
      labels.forEach((l: unknown, j: number) => {
        if (!isPlainObject(l)) fail(shard.path, `${p}.labels[${j}]`, `query ${JSON.stringify(id)}: label must be an object`);
        const lid = str(l.id);
        if (lid === undefined || lid === '') fail(shard.path, `${p}.labels[${j}].id`, `query ${JSON.stringify(id)}: label id missing`);
        let rel: unknown = l.relevance ?? 1;
        if (typeof rel === 'bigint') rel = Number(rel);
        if (typeof rel !== 'number' || !Number.isInteger(rel) || rel < 0 || rel > 3)
          fail(
            shard.path,
            `${p}.labels[${j}].relevance`,
            `query ${JSON.stringify(id)}: relevance must be an integer 0..3, got ${JSON.stringify(rel)}`,
          );
        const tid = toolIdOf.get(lid);
        if (tid === undefined) {
          if (!unknownFirst) unknownFirst = `${shard.path}: ${p}.labels[${j}].id`;
          unknown.push(`${id} -> ${lid}`);
          return;
        }
        if (rel < 1) {
          droppedLabels++;
          return;
        }
        out.set(tid, Math.max(out.get(tid) ?? 0, rel));
      });
      if (out.size === 0) {
        droppedUnscoreable++;
        return;
      }
      queries.push({
        id,
        query: text,
        labels: [...out.entries()].sort((a, b) => compareIds(a[0], b[0])).map(([tool_id, relevance]) => ({ tool_id, relevance })),
      });
    });
  }
  return { queries, unknown, unknownFirst, queryRows, droppedEmpty, droppedUnscoreable, droppedLabels };
}

export async function loadToolRet(dirIn: string): Promise<ToolRetLoad> {
  const dir = resolveToolRetDir(dirIn);
  const toolShards = listShards(join(dir, 'tools'));
  const queryShards = listShards(join(dir, 'queries'));
  if (toolShards.length === 0) throw new UserError(`${join(dir, 'tools')}: no .parquet shards`);
  if (queryShards.length === 0) throw new UserError(`${join(dir, 'queries')}: no .parquet shards`);

  const { tools, toolIdOf, toolRows, collapsed } = await readTools(toolShards);
  const q = await readQueries(queryShards, toolIdOf);
  const { queries, unknown, unknownFirst } = q;
  if (unknown.length) {
    throw new UserError(
      `${unknownFirst}: ${unknown.length} label(s) name no tool in the ToolRet tools (revisions out of sync?): ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', ...' : ''}`,
    );
  }
  if (queries.length === 0) throw new UserError(`${join(dir, 'queries')}: no scoreable queries`);
  queries.sort((a, b) => compareIds(a.id, b.id));

  const toolsRev = manifestRevision(dir, TOOLRET_TOOLS_REPO) ?? 'unknown-revision';
  const queriesRev = manifestRevision(dir, TOOLRET_QUERIES_REPO) ?? 'unknown-revision';
  const short = (r: string) => (/^[0-9a-f]{40}$/.test(r) ? r.slice(0, 8) : r);
  const version = `toolret@${short(toolsRev)}`;
  const corpus: Corpus = {
    id: 'toolret',
    name: 'ToolRet tools (mangopy/ToolRet-Tools)',
    version,
    license: TOOLRET_LICENSE,
    attribution: 'ToolRet: mangopy/ToolRet-Tools and mangopy/ToolRet-Queries on Hugging Face',
    committed: isCommittedPath(dir),
    format: 'toolret',
    source: dir,
    tools,
  };
  const golden: GoldenSet = { corpus_version: version, version: `toolret-queries@${short(queriesRev)}`, queries };
  return {
    corpus,
    golden,
    info: {
      tools_revision: toolsRev,
      queries_revision: queriesRev,
      tool_shards: toolShards.length,
      query_shards: queryShards.length,
      tool_rows: toolRows,
      duplicate_tools_collapsed: collapsed,
      query_rows: q.queryRows,
      dropped_empty_queries: q.droppedEmpty,
      dropped_unscoreable: q.droppedUnscoreable,
      dropped_labels_below_1: q.droppedLabels,
    },
  };
}
