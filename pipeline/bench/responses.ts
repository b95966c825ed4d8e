/**
 * The simulated discovery responses of one arm (the offline stand-in for a retrieve_tools
 * response, labelled as such in the report's notes), built from rankings(arm) only:
 * texts[DISCOVERY_MENU_AT] = the discovery menu (the reference proxy's own tools) rendered by the
 * arm; then, per golden query, the arm's rendering of the top-k tools of its ranking that are in
 * the corpus. A response depends only on the arm and its top-k ranking: each distinct ranking is
 * rendered once and `perQuery` points into `texts`, so a mean over `perQuery` is still over all
 * queries.
 */
import type { ToolRecord } from '../types.ts';
import type { Arm } from '../../arms/types.ts';

/** index of the discovery menu in `SimulatedResponses.texts` */
export const DISCOVERY_MENU_AT = 0;

export interface SimulatedResponses {
  texts: string[];
  /** per golden query (golden order): index into `texts` of its response */
  perQuery: number[];
}

export interface ResponseInputs {
  /** rankings(arm): query text -> ranked tool ids (the index the arm's responses come from) */
  rankings: ReadonlyMap<string, readonly string[]>;
  /** the golden queries' texts, in golden order */
  queries: readonly string[];
  /** the corpus's tools by id (a ranked id outside the corpus is left out) */
  tools: ReadonlyMap<string, ToolRecord>;
  /** the discovery menu's tools */
  menu: readonly ToolRecord[];
  /** tools per response */
  topK: number;
}

/** The arm's responses, or a note saying why it has none (it cannot render the discovery menu). */
export function simulateResponses(arm: Arm, inp: ResponseInputs): SimulatedResponses | { note: string } {
  let menuText: string;
  try {
    menuText = arm.renderListing(inp.menu);
  } catch (e) {
    return { note: `economics: arm ${arm.meta.id} cannot render the discovery menu (${(e as Error).message}); no break-even row` };
  }
  const texts = [menuText];
  const slot = new Map<string, number>();
  const perQuery = inp.queries.map((query) => {
    const ids = (inp.rankings.get(query) ?? []).slice(0, inp.topK).filter((id) => inp.tools.has(id));
    const key = ids.join('\n');
    let at = slot.get(key);
    if (at === undefined) {
      at = texts.length;
      slot.set(key, at);
      texts.push(ids.length ? arm.renderListing(ids.map((id) => inp.tools.get(id)!)) : '');
    }
    return at;
  });
  return { texts, perQuery };
}
