/** Shared by the bench-perf sections (scripts/perf/lib is not itself a section). */
import { getArm } from '../../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../../../pipeline/constants.ts';
import type { IndexDoc, ToolRecord } from '../../../pipeline/types.ts';

/** The baseline_json arm's index docs; a tool the baseline cannot encode is left out, as in the offline stage. */
export function baselineIndexDocs(tools: ToolRecord[]): IndexDoc[] {
  const arm = getArm(BASELINE_ARM_ID);
  const docs: IndexDoc[] = [];
  for (const t of tools) {
    try {
      docs.push(arm.indexDoc(t));
    } catch {
      // left out
    }
  }
  return docs;
}
