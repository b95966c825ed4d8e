/**
 * The result-arm contract: one deterministic way of putting a tool's result payload into the
 * model's context. Every arm also decodes its own text, so the runner can check per fixture that
 * decode(render(payload)) gives the payload back (a lossy rendering is reported, never counted
 * as savings). Arms live in `arms/result/<id>.ts`; the registry is `arms/result-registry.ts`.
 */
import type { JsonValue } from '../pipeline/types.ts';
import type { PayloadClass } from '../pipeline/toolresults/tabular.ts';

/** The result arm every saving is measured against. */
export const RESULT_BASELINE_ARM_ID = 'json';

export interface ResultArmMeta {
  /** registry key, /^[a-z0-9_]+$/ */
  id: string;
  description: string;
  /** the npm package doing the work, when not this project's code */
  library?: string;
}

export interface ResultArm {
  meta: ResultArmMeta;
  /** null = the arm applies to this payload; otherwise why it is skipped (e.g. not tabular) */
  skipReason(payload: JsonValue, cls: PayloadClass): string | null;
  /** the text the model would read */
  render(payload: JsonValue): string;
  /** the value a reader recovers from the text (for the round-trip check) */
  decode(text: string): unknown;
}
