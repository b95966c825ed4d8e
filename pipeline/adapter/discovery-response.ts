/**
 * Reading a discovery tool's response (retrieve_tools and its kin): one JSON value whose tool
 * entries live in the top-level `tools` (or `results`) array, or whose top level is itself an
 * array of entries. An entry names its tool by `id` / `tool_id`, else by `name` (prefixed
 * `server:` when it names its `server` / `server_name` separately and the name has no `:`); an
 * entry wrapped as `{"tool": {...}, "score": ...}` is read inside too; `call_with` is the call
 * tool the entry says to use (mcpproxy's per-result hint). A non-object entry is its own name
 * when it is a string.
 *
 * The reader walks the exact bytes once (pipeline/util/json-scan.ts) and tells a visitor where
 * each part ends, so the live stage's span attribution (pipeline/live/spans.ts) labels the same
 * walk the names come from. Text that is not one JSON value (or has trailing data) throws
 * `JsonScanError`; `discoveryRanking` turns that into an empty ranking.
 */
import { JsonScanError, JsonScanner, decodeJsonString } from '../util/json-scan.ts';

const TOOL_ARRAY_KEYS = ['tools', 'results'];

/** Where the parts of the response end (byte offsets); each part starts where the previous ended. */
export interface ResponseVisitor {
  /** structure up to `end`: braces, brackets, the tools-array opener, trailing whitespace */
  structure(end: number): void;
  /** a top-level pair other than the tools array (its preceding comma and key included) */
  topPair(key: string, end: number): void;
  /** a pair of a tool entry, or a whole non-object entry (key null) */
  entryPair(key: string | null, end: number): void;
}

export interface DiscoveryEntries {
  /** entries in the tools array (0 when none) */
  resultCount: number;
  /** tool ids in response order */
  ranking: string[];
  /** tool id -> the call tool its entry names in `call_with`, when any entry does */
  callWith?: Record<string, string>;
  /** false when the JSON value has no tools array (and is not an array itself) */
  sawToolArray: boolean;
}

const enc = new TextEncoder();

/** Walks the response bytes, calling `visit` as parts end. Throws JsonScanError on text that is not one JSON value. */
export function readDiscoveryResponse(bytes: Uint8Array, visit: ResponseVisitor): DiscoveryEntries {
  const s = new JsonScanner(bytes);
  const ranking: string[] = [];
  let callWith: Record<string, string> | undefined;
  let resultCount = 0;
  let sawToolArray = false;

  const strValue = (start: number, end: number): string | undefined =>
    bytes[start] !== 0x22 ? undefined : decodeJsonString(bytes, start, end);

  // One tool entry: an object whose pairs are reported by key; a non-object is one part.
  const entry = (): void => {
    s.ws();
    resultCount++;
    if (s.peek() !== 0x7b) {
      const [vs, ve] = s.value();
      visit.entryPair(null, ve);
      const name = strValue(vs, ve);
      if (name !== undefined) ranking.push(name);
      return;
    }
    const ids: { name?: string; server?: string; id?: string; callWith?: string } = {};
    const walk = (nested: boolean): void => {
      s.pairs(
        () => visit.structure(s.pos),
        (key) => {
          if (!nested && key === 'tool' && s.peek() === 0x7b) {
            walk(true);
            return;
          }
          const [vs, ve] = s.value();
          visit.entryPair(key, ve);
          if (key === 'call_with') {
            const v = strValue(vs, ve);
            if (v !== undefined) ids.callWith = v;
          }
          if (key === 'name' || key === 'server' || key === 'server_name' || key === 'id' || key === 'tool_id') {
            const v = strValue(vs, ve);
            if (v !== undefined) {
              if (key === 'name') ids.name = v;
              else if (key === 'id' || key === 'tool_id') ids.id = v;
              else ids.server = v;
            }
          }
        },
      );
      visit.structure(s.pos);
    };
    walk(false);
    const id =
      ids.id ?? (ids.name !== undefined ? (ids.server && !ids.name.includes(':') ? `${ids.server}:${ids.name}` : ids.name) : undefined);
    if (id !== undefined) {
      ranking.push(id);
      if (ids.callWith !== undefined) (callWith ??= {})[id] = ids.callWith;
    }
  };

  const toolArray = (): void => {
    sawToolArray = true;
    s.ws();
    s.expect(0x5b);
    visit.structure(s.pos);
    s.items(0x5d, entry);
    visit.structure(s.pos);
  };

  s.ws();
  const c = s.peek();
  if (c === 0x7b) {
    s.pairs(
      () => visit.structure(s.pos),
      (key) => {
        if (!sawToolArray && TOOL_ARRAY_KEYS.includes(key) && s.peek() === 0x5b) {
          toolArray();
          return;
        }
        const [, ve] = s.value();
        visit.topPair(key, ve);
      },
    );
  } else if (c === 0x5b) {
    toolArray();
  } else {
    s.value();
  }
  s.ws();
  if (s.pos !== bytes.length) s.fail('trailing data after the JSON value');
  visit.structure(bytes.length);
  return { resultCount, ranking, ...(callWith ? { callWith } : {}), sawToolArray };
}

const IGNORE: ResponseVisitor = { structure() {}, topPair() {}, entryPair() {} };

/** The tool ids a discovery response ranks, in order; [] when the text is not one JSON value. */
export function discoveryRanking(text: string): string[] {
  try {
    return readDiscoveryResponse(enc.encode(text), IGNORE).ranking;
  } catch (e) {
    if (!(e instanceof JsonScanError)) throw e;
    return [];
  }
}
