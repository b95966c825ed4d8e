/**
 * Judging: every applicable check reads the Evidence (no I/O). Reason-coded: transport or
 * capability mismatch = not_applicable; a failed prerequisite = blocked_by:<root check>; a
 * server that died before the check's probes = not_evaluable(server_died) unless the check's
 * own probe killed it.
 */
import { View } from './evidence.ts';
import { exitedAfterHandshake } from './exit.ts';
import { catalogFor, selected, type Selection } from './select.ts';
import type { CheckMeta, CheckResult, Evidence, Verdict, WireKind } from '../types.ts';
import type { Check } from './check.ts';

function capabilityDeclared(v: View, cap: string): boolean {
  return cap in v.caps();
}

function fromVerdict(id: string, v: Verdict): CheckResult {
  const r: CheckResult = { id, status: v.status, code: v.status, detail: v.detail };
  if (v.status === 'not_applicable' || v.status === 'not_evaluable') r.reason = v.reason;
  if (v.status === 'pass' && v.warnings) r.warnings = v.warnings;
  return r;
}

/** The root cause of a blocked chain: the first failing prerequisite, followed down. */
function rootOf(id: string, byId: Map<string, CheckResult>): string {
  const r = byId.get(id);
  if (r?.status === 'blocked_by') return r.code.slice('blocked_by:'.length);
  return id;
}

export function judge(ev: Evidence, sel: Selection = { only: [], skip: [] }): Array<CheckResult & { meta: CheckMeta }> {
  const v = new View(ev);
  const checks = catalogFor(ev.revision);
  const byId = new Map<string, CheckResult>();
  const order = topo(checks);
  for (const c of order) byId.set(c.meta.id, judgeOne(c, v, byId));
  return checks.filter((c) => selected(c, sel)).map((c) => ({ ...byId.get(c.meta.id)!, meta: metaOn(c.meta, ev.wire) }));
}

/** The meta as it applies on this wire: the per-wire keyword replaces the default one. */
export function metaOn(m: CheckMeta, wire: WireKind): CheckMeta {
  const sev = m.severityOn?.[wire];
  return sev && sev !== m.severity ? { ...m, severity: sev } : m;
}

function judgeOne(c: Check, v: View, byId: Map<string, CheckResult>): CheckResult {
  const m = c.meta;
  if (!m.transports.includes(v.ev.wire))
    return {
      id: m.id,
      status: 'not_applicable',
      code: 'not_applicable',
      reason: 'transport',
      detail: `${v.ev.wire} is not one of ${m.transports.join(', ')}`,
    };
  if (m.capability && !capabilityDeclared(v, m.capability) && byId.get('lifecycle-handshake')?.status === 'pass') {
    return {
      id: m.id,
      status: 'not_applicable',
      code: 'not_applicable',
      reason: 'capability_undeclared',
      detail: `the server does not declare ${m.capability}`,
    };
  }
  for (const p of m.prerequisites) {
    const pr = byId.get(p);
    if (!pr || pr.status === 'not_applicable' || pr.status === 'pass') continue;
    if (pr.status === 'not_evaluable')
      return {
        id: m.id,
        status: 'not_evaluable',
        code: 'not_evaluable',
        reason: pr.reason,
        detail: `prerequisite ${p} not evaluable: ${pr.detail}`,
      };
    const root = rootOf(p, byId);
    return { id: m.id, status: 'blocked_by', code: `blocked_by:${root}`, detail: `prerequisite ${root} failed` };
  }
  // the server died before this check's probes ran (and none of them is the one that killed it)
  const exit = v.ev.exit;
  // the server exited right after initialize: no later probe killed it, so none is blamed
  if (exit && m.id !== 'lifecycle-handshake' && exitedAfterHandshake(v.ev)) {
    return {
      id: m.id,
      status: 'not_evaluable',
      code: 'not_evaluable',
      reason: 'server_died',
      detail: `the server exited (code ${exit.code}) right after answering initialize, before this check's probes were answered`,
    };
  }
  if (exit && !m.probes.includes(exit.afterProbe)) {
    const mine = m.probes.map((p) => v.x(p)).filter(Boolean);
    if (mine.length && mine.every((e) => e!.error?.kind === 'died' && !e!.response)) {
      return {
        id: m.id,
        status: 'not_evaluable',
        code: 'not_evaluable',
        reason: 'server_died',
        detail: `the server exited after probe ${exit.afterProbe} (root cause reported there)`,
      };
    }
  }
  let verdict: Verdict;
  try {
    verdict = c.judge(v);
  } catch (e) {
    verdict = { status: 'fail', detail: `unexpected answer shape: ${(e as Error).message}` };
  }
  if (m.clientOnlyOn?.includes(v.ev.wire) && (verdict.status === 'pass' || verdict.status === 'fail')) {
    // the requirement binds the client on this wire: report what the server did, grade nothing
    return {
      id: m.id,
      status: 'not_applicable',
      code: 'not_applicable',
      reason: 'client_only',
      detail: `not graded on ${v.ev.wire}: the requirement binds the client (it must not send such a message); observed: ${verdict.status === 'pass' ? 'handled' : 'not handled'}: ${verdict.detail}`,
    };
  }
  return fromVerdict(m.id, verdict);
}

/** Prerequisites before dependents (the catalog is acyclic; a cycle is a build error in the registry test). */
export function topo(checks: readonly Check[]): Check[] {
  const byId = new Map(checks.map((c) => [c.meta.id, c]));
  const out: Check[] = [];
  const state = new Map<string, 1 | 2>();
  const visit = (c: Check, path: string[]) => {
    const s = state.get(c.meta.id);
    if (s === 2) return;
    if (s === 1) throw new Error(`prerequisite cycle: ${[...path, c.meta.id].join(' -> ')}`);
    state.set(c.meta.id, 1);
    for (const p of c.meta.prerequisites) {
      const pc = byId.get(p);
      if (pc) visit(pc, [...path, c.meta.id]);
    }
    state.set(c.meta.id, 2);
    out.push(c);
  };
  for (const c of checks) visit(c, []);
  return out;
}
