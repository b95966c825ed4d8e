/**
 * The offline economics of one arm, from declared inputs only: counts(arm) (the full menu = the
 * arm's whole listing) and the counts of the arm's simulated responses (responses.ts, built from
 * rankings(arm)). Per tokenizer: break-even of the discovery menu against the full menu, its
 * curve, and session estimates (formulas in pipeline/economics/). Pure: numbers in, rows out.
 */
import type { TokenizerName } from '../tokens/tokenizer.ts';
import { SESSION_CALLS } from '../constants.ts';
import { breakEvenCurve } from '../economics/breakeven.ts';
import { sessionEstimates } from '../economics/session.ts';
import { mean } from '../util/stats.ts';
import { breakEvenRow, curveRows, sessionRows, type Economics } from '../report/index.ts';
import { DISCOVERY_MENU_AT } from './responses.ts';

export interface ArmEconomicsInput {
  corpusId: string;
  arm: string;
  /** the arm's retry rate (its meta), for the session estimates */
  retryRate: number;
  /** per golden query (golden order): index of its response in each `responseTokens` */
  perQuery: readonly number[];
  /** per tokenizer, in report order */
  byTokenizer: readonly {
    tokenizer: TokenizerName;
    /** counts(arm): tokens of the arm's whole listing */
    fullMenuTokens: number;
    /** tokens of each simulated response text (SimulatedResponses.texts, same order) */
    responseTokens: readonly number[];
  }[];
}

export function armEconomics(inp: ArmEconomicsInput): Economics {
  const out: Economics = { break_even: [], session_estimates: [], curves: [] };
  for (const t of inp.byTokenizer) {
    const meanResp = mean(inp.perQuery.map((at) => t.responseTokens[at]));
    const discovery = t.responseTokens[DISCOVERY_MENU_AT];
    const key = { corpus_id: inp.corpusId, arm: inp.arm, tokenizer: t.tokenizer };
    const curve = breakEvenCurve({ fullMenuTokens: t.fullMenuTokens, discoveryMenuTokens: discovery, meanResponseTokens: meanResp });
    out.break_even.push(breakEvenRow(key, curve.break_even));
    out.curves.push(...curveRows(key, curve));
    out.session_estimates.push(
      ...sessionRows(
        key,
        sessionEstimates({ menuTokens: discovery, meanResponseTokens: meanResp, retryRate: inp.retryRate, calls: SESSION_CALLS }),
      ),
    );
  }
  return out;
}
