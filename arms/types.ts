/**
 * The encoding-arm contract (docs/architecture.md "Arms"). Two kinds of arm live in this
 * package, each one file plus one registry line (`arms/registry.ts`):
 * - 'listing' arms (`arms/listing/<id>.ts`): one deterministic way of presenting tool
 *   DEFINITIONS (tools/list) to a model; golden outputs in `arms/golden/`;
 * - 'result' arms (`arms/result/<id>.ts`): one way of encoding a tool call's OUTPUT
 *   value (json, json_compact, toon, csv_when_tabular); their contract (`ResultArm`) and
 *   registry are `arms/result-types.ts` and `arms/result-registry.ts`.
 */
import type { IndexDoc, ToolRecord } from '../pipeline/types.ts';

export type ArmKind = 'listing' | 'result';

/** The reference arm every saving is measured against (pipeline/constants.ts). */
export { BASELINE_ARM_ID } from '../pipeline/constants.ts';

export interface ArmMeta {
  /** registry key, matches /^[a-z0-9_]+$/ */
  id: string;
  kind: 'listing';
  description: string;
  /** true when indexDoc() differs from baseline_json's for some tool (the index must be rebuilt on the arm's text) */
  altersIndex: boolean;
  /** true when the arm drops or rewrites description text (its savings are a lower bound on information kept) */
  lowerBound: boolean;
  /** default retry rate for session estimates (probability a call must be repeated because of the format) */
  retryRate: number;
}

export interface Arm {
  meta: ArmMeta;
  /** null = usable; otherwise the reason the whole arm is skipped */
  available(): Promise<string | null>;
  /** standalone form of one tool (no shared preamble). Throws ArmEncodeError if it cannot be encoded. */
  renderTool(tool: ToolRecord): string;
  /** the whole listing, shared preambles paid once. Throws ArmEncodeError (with toolId when one tool is at fault). */
  renderListing(tools: readonly ToolRecord[]): string;
  /** what a search index sees of the tool under this arm. Throws ArmEncodeError. */
  indexDoc(tool: ToolRecord): IndexDoc;
}
