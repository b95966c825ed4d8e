/** The shared judgement of the tool-input injection checks: fail only on evidence (an echo passes). */
import type { View } from './evidence.ts';
import { INJECTIONS, answerText, type InjectionKind } from './security-kit.ts';
import type { Verdict } from './types.ts';

/** `noTarget`: why no probe went out (no read-only tool with a fitting argument; --no-invasive also sends none) */
export function injectionVerdict(v: View, kind: InjectionKind, noTarget: string): Verdict {
  const { probe, evidence } = INJECTIONS[kind];
  const e = v.x(probe);
  if (!e) {
    // no URL argument at all: the SSRF check has nothing to apply to; the other classes could apply but no tool is safe to probe
    return kind === 'ssrf' ? { status: 'not_applicable', reason: 'no_population', detail: `${noTarget}, or --no-invasive` } : { status: 'not_evaluable', reason: 'no_population', detail: `${noTarget}, or --no-invasive` };
  }
  const gate = v.unusable(probe);
  if (gate && !('reason' in gate && gate.reason === 'gateway_5xx')) return gate;
  if (e.error?.kind === 'died') return { status: 'fail', detail: `the server died on the ${kind} payload: ${e.error.detail}` };
  const text = answerText(e);
  const hit = evidence.exec(text);
  const call = JSON.parse(e.request.body) as { params?: { name?: string } };
  const where = `tool ${call.params?.name ?? '?'}`;
  if (hit) return { status: 'fail', detail: `${where}: the answer to the ${kind} payload contains ${JSON.stringify(hit[0])}` };
  if (e.error?.kind === 'timeout') return { status: 'fail', detail: `${where}: no answer to the ${kind} payload (${e.error.detail})` };
  if ((e.response?.status ?? 0) >= 500) return { status: 'fail', detail: `${where}: HTTP ${e.response!.status} on the ${kind} payload` };
  const how = v.error(probe) ? `refused with ${v.error(probe)!.code}` : v.result(probe)?.isError === true ? 'a tool error' : v.result(probe) ? 'a result' : `HTTP ${e.response?.status ?? '-'}`;
  return { status: 'pass', detail: `${where}: ${how}, no sign of execution` };
}
