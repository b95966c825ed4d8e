/**
 * `mcpgauge comply benchmark <target>`: cold start to the first answer, then after a warm-up
 * the latency of the era's cheapest request (server/discover or ping) at concurrency 1, 8
 * and 32. Only a JSON-RPC result counts as a success. Loopback targets stop by themselves
 * (a fixed number of requests per level).
 */
import { UserError } from '../types.ts';
import { term, termLine } from '../util/escape.ts';
import { distribution, type Distribution } from '../util/stats.ts';
import { build, initializeParams, type EnvelopeState, type Obj } from './gather/request-builder.ts';
import { probeEra } from './gather/era-probe.ts';
import { replyOf } from './gather/reply.ts';
import { parseTarget, redactHeaders, secretsOf, describeTarget, targetFlagsOf, type Target } from './gather/server-target.ts';
import { redactDeep } from '../util/redact.ts';
import { LEGACY, MODERN, type Revision } from './types.ts';
import { HttpWire } from './wire/http.ts';
import { StdioWire } from './wire/stdio.ts';
import type { Wire } from './wire/types.ts';

export const LEVELS = [1, 8, 32] as const;
export const WARMUP = 20;

export interface LevelResult {
  concurrency: number;
  requests: number;
  ok: number;
  errors: number;
  firstError?: string;
  latencyMs: Distribution;
  reqPerSec: number;
}

export interface BenchmarkResult {
  target: string;
  revision: Revision;
  method: string;
  coldStartMs: number;
  levels: LevelResult[];
  provenance: { kind: 'measured'; method: string };
}

async function level(
  wire: Wire,
  env: EnvelopeState,
  method: string,
  c: number,
  n: number,
  nextId: () => number,
  timeoutMs: number,
): Promise<LevelResult> {
  const lat: number[] = [];
  let ok = 0;
  let firstError: string | undefined;
  let issued = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (issued < n) {
      issued++;
      const id = nextId();
      const b = build(env, id, method);
      const s = performance.now();
      const ex = await wire.send({
        probe: 'bench',
        body: JSON.stringify(b.message),
        id,
        expect: 'reply',
        http: wire.kind === 'http' ? { method: 'POST', headers: b.headers } : undefined,
        timeoutMs,
      });
      lat.push(performance.now() - s);
      if (replyOf(ex)?.result !== undefined) ok++;
      else firstError ??= ex.error?.detail ?? JSON.stringify(replyOf(ex)?.error ?? ex.response?.status);
    }
  };
  await Promise.all(Array.from({ length: c }, worker));
  const secs = (performance.now() - t0) / 1000;
  return {
    concurrency: c,
    requests: n,
    ok,
    errors: n - ok,
    ...(firstError ? { firstError } : {}),
    latencyMs: distribution(lat),
    reqPerSec: n / secs,
  };
}

export async function benchmark(
  target: Target,
  o: { spec: 'auto' | Revision; requests: number; timeoutMs: number; startupTimeoutMs: number; secrets: readonly string[] },
): Promise<BenchmarkResult> {
  const start = performance.now();
  const wire: Wire =
    target.kind === 'http' ? new HttpWire(target.url, o.timeoutMs, redactHeaders(o.secrets)) : new StdioWire(target, o.timeoutMs);
  let id = 1;
  const nextId = () => id++;
  try {
    const headers = target.kind === 'http' ? target.headers : {};
    let rev: Revision;
    let coldStartMs: number;
    if (o.spec === 'auto' || o.spec === MODERN) {
      const p = await probeEra(wire, headers, o.startupTimeoutMs);
      coldStartMs = performance.now() - start;
      if (!replyOf(p.exchange) && p.exchange.error)
        throw new UserError(`benchmark: ${describeTarget(target)} did not answer (${p.exchange.error.detail})`);
      rev = o.spec === 'auto' ? (p.era === MODERN ? MODERN : LEGACY) : MODERN;
    } else rev = LEGACY;
    const env: EnvelopeState = { revision: rev, userHeaders: headers };
    if (rev === LEGACY) {
      const b = build(env, nextId(), 'initialize', initializeParams(LEGACY));
      const ex = await wire.send({
        probe: 'init',
        body: JSON.stringify(b.message),
        id: b.message.id as number,
        expect: 'reply',
        http: wire.kind === 'http' ? { method: 'POST', headers: b.headers } : undefined,
        timeoutMs: o.startupTimeoutMs,
      });
      coldStartMs ??= performance.now() - start;
      const r = replyOf(ex)?.result as Obj | undefined;
      if (!r) throw new UserError(`benchmark: initialize failed (${ex.error?.detail ?? JSON.stringify(replyOf(ex)?.error)})`);
      env.negotiated = typeof r.protocolVersion === 'string' ? r.protocolVersion : LEGACY;
      env.sessionId = ex.response?.headers?.['mcp-session-id'];
      const n = build(env, null, 'notifications/initialized');
      await wire.send({
        probe: 'initialized',
        body: JSON.stringify(n.message),
        id: null,
        expect: wire.kind === 'http' ? 'reply' : 'none',
        http: wire.kind === 'http' ? { method: 'POST', headers: n.headers } : undefined,
      });
    }
    const method = rev === MODERN ? 'server/discover' : 'ping';
    await level(wire, env, method, 1, WARMUP, nextId, o.timeoutMs);
    const levels: LevelResult[] = [];
    for (const c of LEVELS) levels.push(await level(wire, env, method, c, o.requests, nextId, o.timeoutMs));
    return {
      target: describeTarget(target),
      revision: rev,
      method,
      coldStartMs: coldStartMs!,
      levels,
      provenance: {
        kind: 'measured',
        method: `wall clock (performance.now) per request; ${WARMUP} warm-up requests unmeasured; nearest-rank percentiles over n=${o.requests} per level`,
      },
    };
  } finally {
    await wire.close();
  }
}

export function renderBenchmark(b: BenchmarkResult): string {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  const rows = b.levels.map(
    (l) =>
      `  c=${String(l.concurrency).padEnd(3)} p50 ${f(l.latencyMs.p50)}  p95 ${f(l.latencyMs.p95)}  p99 ${f(l.latencyMs.p99)}  max ${f(l.latencyMs.max)} ms   ${l.reqPerSec.toFixed(0)} req/s   errors ${l.errors}/${l.requests}${l.firstError ? ` (first: ${termLine(l.firstError.slice(0, 100))})` : ''}`,
  );
  return term(
    `benchmark ${termLine(b.target)} (${b.revision}, ${b.method})\n  cold start to first answer: ${b.coldStartMs.toFixed(0)} ms\n${rows.join('\n')}\n  (${b.provenance.method})\n`,
  );
}

export async function runBenchmarkCli(words: string[], o: Record<string, unknown>): Promise<number> {
  const flags = targetFlagsOf(o);
  const target = parseTarget(words, flags);
  const requests = Number(o.requests);
  if (!Number.isInteger(requests) || requests < 1)
    throw new UserError(`--requests must be an integer >= 1 (got ${JSON.stringify(o.requests)})`);
  const spec = String(o.specVersion);
  if (spec !== 'auto' && spec !== LEGACY && spec !== MODERN) throw new UserError(`--spec-version must be auto, ${LEGACY} or ${MODERN}`);
  const secrets = secretsOf(target, flags);
  const r = redactDeep(
    await benchmark(target, {
      spec: spec as 'auto' | Revision,
      requests,
      timeoutMs: Number(o.timeout),
      startupTimeoutMs: Number(o.startupTimeout),
      secrets,
    }),
    secrets,
    true,
    true,
  );
  process.stdout.write(o.format === 'json' ? `${JSON.stringify(r, null, 2)}\n` : renderBenchmark(r));
  return r.levels.some((l) => l.errors > 0) ? 1 : 0;
}
