/**
 * One `mcpgauge comply` run: resolve the era(s), gather evidence per revision (dual-era
 * servers on both wires; separate processes on stdio), judge, grade. Also rebuilds a report
 * from a recording (--replay) with the same judge and grader.
 */
import { probeEra, type EraProbe } from './gather/era-probe.ts';
import { gather, replyOf } from './gather/gather.ts';
import { K_SERVER_INFO, build as buildRequest, initializeParams, type Obj } from './gather/request-builder.ts';
import { CAP_RULE, REQUIREMENT_NOTE, categoriesOf, gradeRun } from './output/grade.ts';
import { exitedAfterHandshake, exitedBeforeAnswering, startFailure } from './judge/exit.ts';
import { judge } from './judge/judge.ts';
import { DUAL_ERA_PROBE } from './gather/probes/lifecycle.ts';
import type { Selection } from './judge/select.ts';
import { describeTarget, redactHeaders, type Target } from './gather/server-target.ts';
import { redactDeep } from '../util/redact.ts';
import { prepareSchemaCompiler } from '../util/schema.ts';
import { LEGACY, MODERN, type ComplyReport, type Evidence, type Revision, type RunReport, type SpecChoice } from './types.ts';
import { HttpWire } from './wire/http.ts';
import { SseWire } from './wire/sse.ts';
import { StdioWire } from './wire/stdio.ts';
import type { Wire } from './wire/types.ts';

export const TOOL_VERSION = '0.1.0';

export interface ComplyOptions {
  spec: SpecChoice;
  timeoutMs: number;
  startupTimeoutMs: number;
  selection: Selection;
  invasive: boolean;
  secrets: readonly string[];
  /** apply the MUST cap to the letter (default true; --no-cap = false) */
  cap?: boolean;
  /** progress: probes done / total for the current revision */
  onProgress?: (rev: Revision, done: number, total: number) => void;
  onStatus?: (line: string) => void;
  /**
   * Given: the stdio servers' shutdown (stdin closed, SIGTERM after a grace, SIGKILL) is handed
   * over instead of awaited, so the report is judged and written while a slow server stops; the
   * caller awaits it before it exits. Nothing of the shutdown is evidence.
   */
  onStopping?: (stopped: Promise<void>) => void;
}

export interface Recording {
  format: 'mcpgauge-comply-recording';
  version: 1;
  target: string;
  era: ComplyReport['era'];
  evidence: Evidence[];
  warnings: string[];
}

interface EraDecision {
  revisions: Revision[];
  era: ComplyReport['era'];
  warnings: string[];
  probe?: EraProbe;
}

function decide(choice: SpecChoice, p: EraProbe | undefined): EraDecision {
  const warnings: string[] = [];
  if (choice !== 'auto') {
    if (p && p.era !== 'undetermined' && p.era !== choice && !(choice === LEGACY && p.supported?.includes(LEGACY))) {
      warnings.push(
        `The server answered the ${MODERN} era probe as a ${p.era} server (${p.reason}); this run is pinned to ${choice}. Re-run with --spec-version ${p.era} (or auto) to grade it.`,
      );
    }
    return {
      revisions: [choice],
      era: { choice, detected: p ? p.era : null, reason: p ? p.reason : `pinned to ${choice} (no era probe)` },
      warnings,
      probe: p,
    };
  }
  const era = p!.era;
  if (era === 'undetermined')
    warnings.push(`Era could not be determined (${p!.reason}); the ${LEGACY} grade below is not meaningful. Re-run with --auth.`);
  else warnings.push(`Spec version auto-detected as ${era} (${p!.reason}). Pin with --spec-version to override.`);
  return { revisions: [era === MODERN ? MODERN : LEGACY], era: { choice, detected: era, reason: p!.reason }, warnings, probe: p };
}

export async function comply(target: Target, o: ComplyOptions): Promise<{ report: ComplyReport; recording: Recording }> {
  const t0 = Date.now();
  // judging compiles the server's outputSchema with ajv: ajv's own set-up runs now, while the server starts
  setTimeout(prepareSchemaCompiler, 0);
  const desc = describeTarget(target);
  const userHeaders = target.kind === 'http' ? target.headers : {};
  const evidence: Evidence[] = [];
  const warnings: string[] = [];
  const runGather = async (wire: Wire, rev: Revision): Promise<Evidence> =>
    gather({
      revision: rev,
      wire,
      target: desc,
      userHeaders,
      invasive: o.invasive,
      startupTimeoutMs: o.startupTimeoutMs,
      onProbe: (d, n) => o.onProgress?.(rev, d, n),
    });

  let decision: EraDecision;
  if (target.kind === 'http') {
    const wire = new HttpWire(target.url, o.timeoutMs, redactHeaders(o.secrets), t0);
    const p = await probeEra(wire, userHeaders, o.startupTimeoutMs);
    if (p.exchange.error?.kind === 'unreachable')
      warnings.push(`${target.url} is unreachable (${p.exchange.error.detail}); nothing could be evaluated.`);
    const st = p.exchange.response?.status;
    if (st === 404 || st === 405 || (st === 400 && p.era === LEGACY)) {
      const sse = new SseWire(target.url, userHeaders, o.timeoutMs, redactHeaders(o.secrets), t0);
      const endpoint = await sse.open(Math.min(o.startupTimeoutMs, 5000));
      if (endpoint) {
        try {
          decision = sseDecision(o.spec, target.url, endpoint);
          evidence.push(await runGather(sse, LEGACY));
        } finally {
          await sse.close();
        }
        warnings.push(...decision.warnings);
        return build(desc, decision.era, evidence, warnings, o.selection, o.secrets, Date.now() - t0, o.cap !== false);
      }
    }
    decision = decide(o.spec, p);
    if (o.spec === 'auto' && p.era === MODERN) {
      // dual-era: a legacy initialize on the same endpoint
      const dual = p.supported?.includes(LEGACY) || (await servesInitialize(wire, userHeaders, o.timeoutMs));
      if (dual) {
        decision.revisions.push(LEGACY);
        decision.warnings.push(`Server is dual-era (serves ${LEGACY} initialize as well); graded on both revisions.`);
      }
    }
    for (const rev of decision.revisions) evidence.push(await runGather(wire, rev));
  } else {
    decision = await stdioRuns(target, o, runGather, evidence);
  }
  warnings.push(...decision.warnings);
  return build(desc, decision.era, evidence, warnings, o.selection, o.secrets, Date.now() - t0, o.cap !== false);
}

/** An HTTP+SSE server: the transport predates 2026-07-28, so it is graded on 2025-11-25 over that wire. */
function sseDecision(choice: SpecChoice, url: string, endpoint: string): EraDecision {
  const warnings = [
    `${url} speaks the deprecated HTTP+SSE transport (GET opened an SSE stream whose first event is "endpoint": ${endpoint}); graded on ${LEGACY} over it. Streamable HTTP checks do not apply; point comply at the Streamable HTTP endpoint if there is one.`,
  ];
  if (choice === MODERN)
    warnings.push(`--spec-version ${MODERN} was asked for, but ${MODERN} has no HTTP+SSE transport: graded on ${LEGACY} instead.`);
  return {
    revisions: [LEGACY],
    era: { choice, detected: LEGACY, reason: 'HTTP+SSE endpoint (GET opened a stream whose first event is "endpoint")' },
    warnings,
  };
}

async function servesInitialize(wire: Wire, headers: Record<string, string>, timeoutMs: number): Promise<boolean> {
  const { build: b, initializeParams } = await import('./gather/request-builder.ts');
  const req = b({ revision: LEGACY, userHeaders: headers }, 990002, 'initialize', initializeParams(LEGACY));
  const ex = await wire.send({
    probe: 'dual-era-probe',
    body: JSON.stringify(req.message),
    id: 990002,
    expect: 'reply',
    http: { method: 'POST', headers: req.headers },
    timeoutMs,
  });
  const r = replyOf(ex)?.result as Obj | undefined;
  return typeof r?.protocolVersion === 'string';
}

async function stdioRuns(
  target: Extract<Target, { kind: 'stdio' }>,
  o: ComplyOptions,
  runGather: (w: Wire, rev: Revision) => Promise<Evidence>,
  evidence: Evidence[],
): Promise<EraDecision> {
  const wires: StdioWire[] = [];
  const fresh = () => {
    const w = new StdioWire(target, o.timeoutMs);
    wires.push(w);
    return w;
  };
  try {
    if (o.spec !== 'auto') {
      const d = decide(o.spec, undefined);
      // 2026-07-28: a legacy initialize on a fresh process of its own says dual-era or modern-only
      const [ev, dual] = await Promise.all([
        runGather(fresh(), o.spec),
        o.spec === MODERN ? legacyInitialize(fresh(), o.startupTimeoutMs) : null,
      ]);
      if (dual) ev.freshInitialize = dual;
      const h = ev.exchanges.find((e) => e.probe === 'handshake');
      const code = (replyOf(h)?.error as { code?: number } | undefined)?.code;
      if (o.spec === MODERN && code !== undefined && ![-32020, -32021, -32022].includes(code)) {
        d.warnings.push(
          `server/discover was answered with ${code}: this looks like a ${LEGACY} server; try --spec-version ${LEGACY} (or auto).`,
        );
      }
      evidence.push(ev);
      return d;
    }
    const a = fresh();
    if (o.startupTimeoutMs > 2000) o.onStatus?.(`Probing the spec era (server/discover, up to ${o.startupTimeoutMs} ms)…`);
    const p = await probeEra(a, {}, o.startupTimeoutMs);
    const d = decide('auto', p);
    if (p.era === MODERN) {
      // the legacy side on its own process: its opening initialize is the dual-era probe
      const b = fresh();
      const [m, l] = await Promise.all([runGather(a, MODERN), runGather(b, LEGACY)]);
      const init = l.exchanges.find((e) => e.probe === 'handshake');
      if (init) m.freshInitialize = { ...init, probe: DUAL_ERA_PROBE };
      evidence.push(m);
      const served =
        typeof (replyOf(l.exchanges.find((e) => e.probe === 'handshake'))?.result as Obj | undefined)?.protocolVersion === 'string';
      if (served) {
        evidence.push(l);
        d.warnings.push(`Server is dual-era (a fresh process served ${LEGACY} initialize); graded on both revisions.`);
      }
      return d;
    }
    const st = a.state();
    let w: StdioWire = a;
    if (st.exit) {
      d.warnings.push(
        `The server exited (code ${st.exit.code}) after the era probe (server/discover); a fresh process was started. A ${LEGACY} server must tolerate unknown requests before initialize.${st.stderrTail ? ` Last stderr: ${st.stderrTail.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}` : ''}`,
      );
      w = fresh();
    }
    const ev = await runGather(w, LEGACY);
    evidence.push(ev);
    // the era probe's exit and the fallback follow from a server that never starts: its run says why
    if (st.exit && exitedBeforeAnswering(ev)) d.warnings = d.warnings.filter((x) => !/era probe|auto-detected/.test(x));
    return d;
  } finally {
    const stopped = Promise.all(wires.map((w) => w.close())).then(() => undefined);
    if (o.onStopping) o.onStopping(stopped);
    else await stopped;
  }
}

async function legacyInitialize(wire: StdioWire, startupTimeoutMs: number) {
  const req = buildRequest({ revision: LEGACY, userHeaders: {} }, 990003, 'initialize', initializeParams(LEGACY));
  return wire.send({ probe: DUAL_ERA_PROBE, body: JSON.stringify(req.message), id: 990003, expect: 'reply', timeoutMs: startupTimeoutMs });
}

function serverInfo(ev: Evidence): RunReport['serverInfo'] {
  const h = replyOf(ev.exchanges.find((e) => e.probe === 'handshake'))?.result as Obj | undefined;
  const si = (ev.revision === MODERN ? (h?._meta as Obj | undefined)?.[K_SERVER_INFO] : h?.serverInfo) as Obj | undefined;
  return {
    name: typeof si?.name === 'string' ? si.name : null,
    version: typeof si?.version === 'string' ? si.version : null,
    capabilities: (h?.capabilities as Obj | undefined) ?? {},
  };
}

export function runReport(ev: Evidence, sel: Selection, durationMs: number, cap = true): RunReport {
  const results = judge(ev, sel);
  const g = gradeRun(results, { cap });
  const w = [...(ev.anomalies ?? []).map((a) => `root cause: ${a}`), ...ev.warnings];
  if (exitedBeforeAnswering(ev)) {
    // one root cause; the fixes and warnings that follow from a server that never started are not shown
    const why = startFailure(ev);
    return {
      revision: ev.revision,
      wire: ev.wire,
      results,
      ...g,
      categories: categoriesOf(results),
      serverInfo: serverInfo(ev),
      warnings: [`root cause: ${why}`],
      startFailure: why,
      durationMs,
    };
  }
  const early = exitedAfterHandshake(ev);
  if (early)
    w.unshift(
      `root cause: the server exited right after initialize (code ${ev.exit!.code}${ev.exit!.signal ? `, ${ev.exit!.signal}` : ''}): it answered the handshake and nothing after it; the checks after the handshake are not evaluable`,
    );
  if (ev.exit)
    w.push(
      `The server exited (code ${ev.exit.code}${ev.exit.signal ? `, ${ev.exit.signal}` : ''}) after probe ${ev.exit.afterProbe}.${ev.stderrTail ? ` Last stderr: ${ev.stderrTail.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}` : ''}`,
    );
  if (ev.noise.length) w.push(`stdout carried ${ev.noise.length} non-protocol line(s); first: ${JSON.stringify(ev.noise[0])}`);
  return {
    revision: ev.revision,
    wire: ev.wire,
    results,
    ...g,
    categories: categoriesOf(results),
    serverInfo: serverInfo(ev),
    warnings: w,
    durationMs,
  };
}

function build(
  target: string,
  era: ComplyReport['era'],
  evidence: Evidence[],
  warnings: string[],
  sel: Selection,
  secrets: readonly string[],
  ms: number,
  cap = true,
) {
  const report: ComplyReport = {
    schemaVersion: '2',
    tool: { name: 'mcpgauge comply', version: TOOL_VERSION },
    target,
    generatedAt: new Date().toISOString(),
    era,
    runs: evidence.map((ev) => runReport(ev, sel, ms, cap)),
    grading: {
      rule: `score = 70 x required (direct MUST) pass rate + 30 x optional pass rate; A>=90 B>=75 C>=60 D>=40; ${CAP_RULE}; a MUST that follows only from JSON-RPC 2.0 or is inferred is weighed as SHOULD; no grade below 50% coverage`,
      capApplied: cap,
      requirementText: REQUIREMENT_NOTE,
    },
    warnings,
    provenance: {
      kind: 'measured',
      method: 'live probes against the target; every verdict is derived from recorded exchanges (--record to keep them)',
    },
  };
  const recording: Recording = { format: 'mcpgauge-comply-recording', version: 1, target, era, evidence, warnings };
  return { report: redactDeep(report, secrets, true, true), recording: redactDeep(recording, secrets, true, true) };
}

/** --replay: the same judge and grader over recorded evidence, offline. */
export function reportFromRecording(rec: Recording, sel: Selection, cap = true): ComplyReport {
  const { report } = build(
    rec.target,
    rec.era,
    rec.evidence,
    [...rec.warnings, 'Re-graded offline from a recording (--replay).'],
    sel,
    [],
    0,
    cap,
  );
  report.provenance = { kind: 'measured', method: 'offline re-grade of recorded exchanges (--replay)' };
  return report;
}
