/**
 * The encoding-arm contract (docs/architecture.md "Arms"). One arm = one deterministic way of
 * presenting tool definitions to a model. Arms live in `arms/<id>.ts`; the registry is
 * `pipeline/arms/registry.ts`.
 */
import type { IndexDoc, ToolRecord } from '../types.ts';

/** The reference arm every saving is measured against (pipeline/constants.ts). */
export { BASELINE_ARM_ID } from '../constants.ts';

export interface ArmMeta {
  /** registry key, matches /^[a-z0-9_]+$/ */
  id: string;
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
