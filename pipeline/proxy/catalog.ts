/**
 * The proxy's tool catalog: every tool of every connected upstream, named `server:tool`,
 * indexed with the project's BM25 over the baseline arm's index documents (the same text the
 * offline stage indexes). Rebuilt whenever an upstream connects, is lost or re-lists.
 */
import { createRetriever, DEFAULT_RETRIEVER_ID } from '../retrieval/index.ts';
import type { Retriever, RetrieverOptions } from '../retrieval/index.ts';
import { getArm } from '../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../constants.ts';
import type { IndexDoc, ToolRecord } from '../types.ts';
import { toolRecordOf, type WireTool } from '../mcp/tool-record.ts';
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

export { toolRecordOf };

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
    private readonly retrieverOptions?: RetrieverOptions,
    private readonly onError: (msg: string) => void = () => {},
  ) {
    this.retriever = createRetriever(retrieverId, retrieverOptions);
    void this.rebuild();
  }

  /** rebuilds started so far; an async build is swapped in only if no later one started */
  private generation = 0;

  /** bumped on every rebuild */
  get version(): number {
    return this._version;
  }
  get size(): number {
    return this.entries.size;
  }

  /**
   * Re-index the upstreams' tools. A synchronous retriever (every lexical one) swaps the new
   * index in before returning; an asynchronous one (`embed`) swaps it in when its build
   * resolves (until then the previous index keeps serving; a failed build is reported through
   * onError and leaves the previous index in place), and the promise is returned.
   */
  rebuild(): void | Promise<void> {
    const entries = new Map<string, CatalogEntry>();
    for (const u of this.upstreams) {
      for (const wire of u.tools) {
        const record = toolRecordOf(u.name, wire);
        if (!entries.has(record.tool_id)) entries.set(record.tool_id, { record, wire, upstream: u });
      }
    }
    const docs = [...entries.values()]
      .map((e) => proxyIndexDoc(e.record))
      .sort((a, b) => (a.tool_id < b.tool_id ? -1 : a.tool_id > b.tool_id ? 1 : 0));
    const retriever = createRetriever(this.retrieverId, this.retrieverOptions);
    const gen = ++this.generation;
    const swap = () => {
      if (gen !== this.generation) return; // a later rebuild started meanwhile
      this.entries = entries;
      this.retriever = retriever;
      this._version++;
    };
    const built = retriever.build(docs);
    if (!(built instanceof Promise)) return swap();
    return built.then(swap, (e: unknown) => this.onError(`indexing with ${this.retrieverId} failed: ${(e as Error).message}`));
  }

  get(toolId: string): CatalogEntry | undefined {
    return this.entries.get(toolId);
  }

  all(): CatalogEntry[] {
    return [...this.entries.values()];
  }

  /** Top k entries for the query (a promise when the retriever answers asynchronously). */
  search(query: string, k: number): CatalogHit[] | Promise<CatalogHit[]> {
    if (this.entries.size === 0 || k <= 0) return [];
    const entries = this.entries;
    const pick = (hits: { tool_id: string; score: number }[]): CatalogHit[] => {
      const out: CatalogHit[] = [];
      for (const h of hits) {
        const entry = entries.get(h.tool_id);
        if (entry) out.push({ entry, score: h.score });
      }
      return out;
    };
    const hits = this.retriever.search(query, k);
    return hits instanceof Promise ? hits.then(pick) : pick(hits);
  }
}
