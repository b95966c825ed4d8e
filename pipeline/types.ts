/**
 * Core data types shared by every stage. Data flows one way:
 * corpus -> arm -> tokens -> index/score -> report -> dashboard.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** One tool, the unit every stage works on. */
export interface ToolRecord {
  /** "server:tool" */
  tool_id: string;
  server: string;
  tool: string;
  description: string;
  /** JSON Schema of the tool's input, when the source has one. */
  inputSchema?: JsonValue;
  annotations?: { [k: string]: JsonValue };
}

/** A loaded corpus plus what the report needs to describe it. */
export interface Corpus {
  /** short id used in report rows, e.g. "corpus-npm4-v1" */
  id: string;
  /** human name */
  name: string;
  /** exact version string, e.g. "corpus-npm4-v1" or "livemcptool@ddea2d24" */
  version: string;
  license: string;
  attribution?: string;
  /** whether the bytes are committed in this repo (false = fetched / mirror) */
  committed: boolean;
  /** which loader produced it: a format id of pipeline/corpus/formats/index.ts, the mcpproxy one as "mcpproxy-v1" / "mcpproxy-v2" */
  format: string;
  /** file or folder it came from */
  source: string;
  tools: ToolRecord[];
}

export interface GoldenLabel {
  tool_id: string;
  /** graded relevance: 1 acceptable .. 3 primary; 0 = explicit hard negative */
  relevance: number;
}
/** How to call a golden query's answer for real (live result cost). */
export interface GoldenCall {
  tool_id: string;
  arguments: { [k: string]: JsonValue };
}
export interface GoldenQuery {
  id: string;
  query: string;
  labels: GoldenLabel[];
  notes?: string;
  call?: GoldenCall;
}
export interface GoldenSet {
  corpus_version: string;
  version?: string;
  /** tools the live stage may call although they are not annotated readOnlyHint: true */
  call_allow?: string[];
  queries: GoldenQuery[];
}

/** What a search index sees of one tool (an arm may rewrite it). */
export interface IndexDoc {
  tool_id: string;
  server: string;
  /** bare tool name */
  name: string;
  description: string;
  /** parameter text as the arm presents it (names, types, descriptions...) */
  params: string;
}

export type Provenance = 'measured' | 'computed' | 'estimated';

/** A headline number with how it was obtained. */
export interface Figure {
  value: number;
  unit: string;
  provenance: Provenance;
  tokenizer?: string;
  n?: number;
  ci95?: [number, number];
}

/** Error for bad user input: one line, names file/field/value; CLI exits non-zero. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
