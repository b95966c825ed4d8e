/**
 * The tool-input injection checks (command, SQL, path traversal, SSRF): one shape, four files.
 * Fail only on evidence of the flaw (an echo of the payload passes).
 */
import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl, type Check } from './check.ts';
import type { View } from './evidence.ts';
import { answerText } from './security.ts';
import { INJECTIONS, type InjectionKind } from '../gather/probes/security-kit.ts';
import { LEGACY, type Verdict } from '../types.ts';

const SENTENCE =
  "Best practice: server never lets a tool argument run as a command, query, path or URL outside what the tool is for; the spec's MUST is that tool input is validated";
const NO_TOOL = 'no tool annotated readOnlyHint:true takes a free-form string argument (payloads go to read-only tools only)';

/** One injection check: its class, knob and words; the meta and judge are shared. */
export function injectionCheck(o: {
  kind: InjectionKind;
  id: string;
  knob: string;
  title: string;
  why: string;
  fix: string;
  noTarget?: string;
}): Check {
  return defineCheck(
    {
      id: o.id,
      title: o.title,
      category: 'security',
      severity: 'best-practice',
      revisions: BOTH_ERAS,
      transports: ANY_WIRE,
      capability: 'tools',
      prerequisites: ['lifecycle-handshake', 'tools-list'],
      probes: [INJECTIONS[o.kind].probe],
      spec: { url: specUrl(LEGACY, 'server/tools#security-considerations'), requirement: `${SENTENCE} (${o.why})` },
      knob: o.knob,
      fix: o.fix,
    },
    (v) => injectionVerdict(v, o.kind, o.noTarget ?? NO_TOOL),
  );
}

/** `noTarget`: why no probe went out (no read-only tool with a fitting argument; --no-invasive also sends none) */
export function injectionVerdict(v: View, kind: InjectionKind, noTarget: string): Verdict {
  const { probe, evidence } = INJECTIONS[kind];
  const e = v.x(probe);
  if (!e) {
    // no URL argument at all: the SSRF check has nothing to apply to; the other classes could apply but no tool is safe to probe
    return kind === 'ssrf'
      ? { status: 'not_applicable', reason: 'no_population', detail: `${noTarget}, or --no-invasive` }
      : { status: 'not_evaluable', reason: 'no_population', detail: `${noTarget}, or --no-invasive` };
  }
  const gate = v.unusable(probe);
  if (gate && !('reason' in gate && gate.reason === 'gateway_5xx')) return gate;
  if (e.error?.kind === 'died') return { status: 'fail', detail: `the server died on the ${kind} payload: ${e.error.detail}` };
  const text = answerText(e);
  const hit = evidence.exec(text);
  const call = JSON.parse(e.request.body) as { params?: { name?: string } };
  const where = `tool ${call.params?.name ?? '?'}`;
  if (hit) return { status: 'fail', detail: `${where}: the answer to the ${kind} payload contains ${JSON.stringify(hit[0])}` };
  if (e.error?.kind === 'timeout' || e.error?.kind === 'unframed')
    return { status: 'fail', detail: `${where}: no answer to the ${kind} payload (${e.error.detail})` };
  if ((e.response?.status ?? 0) >= 500) return { status: 'fail', detail: `${where}: HTTP ${e.response!.status} on the ${kind} payload` };
  const how = v.error(probe)
    ? `refused with ${v.error(probe)!.code}`
    : v.result(probe)?.isError === true
      ? 'a tool error'
      : v.result(probe)
        ? 'a result'
        : `HTTP ${e.response?.status ?? '-'}`;
  return { status: 'pass', detail: `${where}: ${how}, no sign of execution` };
}
