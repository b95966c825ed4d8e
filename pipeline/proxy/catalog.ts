/**
 * The proxy's tool catalog: every tool of every connected upstream, named `server:tool`,
 * indexed with the project's BM25 over the baseline arm's index documents (the same text the
 * offline stage indexes). Rebuilt whenever an upstream connects, is lost or re-lists.
 */
import { createRetriever, DEFAULT_RETRIEVER_ID } from '../retrieval/registry.ts';
import type { Retriever } from '../retrieval/types.ts';
import { getArm } from '../arms/registry.ts';
import { BASELINE_ARM_ID } from '../constants.ts';
import type { IndexDoc, JsonValue, ToolRecord } from '../types.ts';
import type { WireTool } from '../mcp/client.ts';
import type { Upstream } from './upstream.ts';

/** tools are indexed (and menus rendered) like the baseline arm */
const baselineArm = getArm(BASELINE_ARM_ID);

export interface CatalogEntry {
  record: ToolRecord;
  wire: WireTool;
  upstream: Upstream;
}

export interface CatalogHit {
  entry: CatalogEntry;
  score: number;
}

/** A wire tool as the ToolRecord every stage works on. */
export function toolRecordOf(server: string, t: WireTool): ToolRecord {
  const rec: ToolRecord = {
    tool_id: `${server}:${t.name}`,
    server,
    tool: t.name,
    description: typeof t.description === 'string' ? t.description : '',
  };
  if (t.inputSchema !== undefined) rec.inputSchema = t.inputSchema as JsonValue;
  if (t.annotations && typeof t.annotations === 'object') rec.annotations = t.annotations as { [k: string]: JsonValue };
  return rec;
}

/** Index text for one tool: the baseline arm's `indexDoc` (falls back to an empty params text if it cannot encode). */
export function proxyIndexDoc(tool: ToolRecord): IndexDoc {
  try {
    return baselineArm.indexDoc(tool);
  } catch {
    return { tool_id: tool.tool_id, server: tool.server, name: tool.tool, description: tool.description, params: '' };
  }
}

export class ToolCatalog {
  private entries = new Map<string, CatalogEntry>();
  private retriever: Retriever;
  private _version = 0;

  constructor(
    private readonly upstreams: Upstream[],
    private readonly retrieverId: string = DEFAULT_RETRIEVER_ID,
  ) {
    this.retriever = createRetriever(retrieverId);
    this.rebuild();
  }

  /** bumped on every rebuild */
  get version(): number {
    return this._version;
  }
  get size(): number {
    return this.entries.size;
  }

  rebuild(): void {
    const entries = new Map<string, CatalogEntry>();
    for (const u of this.upstreams) {
      for (const wire of u.tools) {
        const record = toolRecordOf(u.name, wire);
        if (!entries.has(record.tool_id)) entries.set(record.tool_id, { record, wire, upstream: u });
      }
    }
    const docs = [...entries.values()].map((e) => proxyIndexDoc(e.record)).sort((a, b) => (a.tool_id < b.tool_id ? -1 : a.tool_id > b.tool_id ? 1 : 0));
    const retriever = createRetriever(this.retrieverId);
    retriever.build(docs);
    this.entries = entries;
    this.retriever = retriever;
    this._version++;
  }

  get(toolId: string): CatalogEntry | undefined {
    return this.entries.get(toolId);
  }

  all(): CatalogEntry[] {
    return [...this.entries.values()];
  }

  search(query: string, k: number): CatalogHit[] {
    if (this.entries.size === 0 || k <= 0) return [];
    const out: CatalogHit[] = [];
    for (const h of this.retriever.search(query, k)) {
      const entry = this.entries.get(h.tool_id);
      if (entry) out.push({ entry, score: h.score });
    }
    return out;
  }
}
