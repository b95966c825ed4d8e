/**
 * The last steps of the live stage: the result-cost rows counted as measured calls, the run's
 * status against --max-error-rate, and the `live` section of report.json assembled from the
 * measured parts (nothing is computed here beyond the error rate).
 */
import type { LiveError, LiveReport, LiveStatus } from '../report/index.ts';
import type { OpenedTarget, UpstreamMenu } from './proxy-under-test.ts';
import { taskSessions } from './result_cost.ts';
import type { CallCounts, Measured } from './measure.ts';
import type { LiveSettings } from './settings.ts';

type ResultCost = NonNullable<LiveReport['result_cost']>;

/** Result calls are measured calls: each failed one is an error row and counts against --max-error-rate. */
export function countResultCalls(
  resultCost: ResultCost,
  economics: LiveReport['economics'],
  parts: {
    corpusId: string;
    menus: LiveReport['menus'];
    responseSummary: LiveReport['response_summary'];
    firstTokenizer: string | undefined;
    counts: CallCounts;
    errors: LiveError[];
    log: (m: string) => void;
  },
): void {
  economics.task_sessions = taskSessions(parts.corpusId, parts.menus, parts.responseSummary, resultCost);
  if (resultCost.missing_call_tool) parts.errors.push({ where: 'result_cost', message: resultCost.missing_call_tool });
  for (const r of resultCost.rows.filter((x) => x.tokenizer === parts.firstTokenizer)) {
    parts.counts.measured.n++;
    if (!r.ok) {
      parts.counts.measured.errors++;
      parts.errors.push({
        where: `result_call:${r.query_id}`,
        message: `${r.call_tool ?? resultCost.call_tool} ${r.tool_id}: ${r.error ?? 'failed'}`,
      });
    }
  }
  if (resultCost.call_with_used)
    parts.log(`live: result cost: ${resultCost.call_with_used} call(s) used the call tool named by the proxy's call_with`);
}

/** ok or failed: the measured calls' error rate against --max-error-rate. */
export function liveStatus(measured: CallCounts['measured'], maxErrorRate: number): LiveStatus {
  const errorRate = measured.n === 0 ? 0 : measured.errors / measured.n;
  const status: LiveStatus = {
    state: errorRate > maxErrorRate ? 'failed' : 'ok',
    error_rate: errorRate,
    max_error_rate: maxErrorRate,
    measured_calls: measured.n,
    failed_calls: measured.errors,
  };
  if (status.state === 'failed')
    status.reason = `${measured.errors} of ${measured.n} measured calls failed (error rate ${errorRate.toFixed(3)} > --max-error-rate ${maxErrorRate})`;
  return status;
}

/** The measured parts of a live run, as the report section takes them. */
export interface LiveParts {
  target: OpenedTarget;
  upstream: UpstreamMenu;
  s: LiveSettings;
  style: { style: 'discovery' | 'passthrough'; reason: string };
  measured: Measured;
  notComputed: { what: string; reason: string }[];
  proxyInfo: LiveReport['proxy'];
  corpusId: string;
  headlineReason: string | null;
  figures: Pick<LiveReport, 'menus' | 'responses' | 'response_summary' | 'retrieval' | 'latency' | 'economics' | 'lap'>;
  passthrough?: LiveReport['passthrough'];
  resultCost?: ResultCost;
  errors: LiveError[];
}

export function assembleLiveReport(p: LiveParts): LiveReport {
  const { target, upstream, s, measured } = p;
  const { counts, cheap } = measured;
  const status = liveStatus(counts.measured, s.maxErrorRate);
  const transport = target.proxy.kind === 'stdio' ? 'stdio' : target.proxy.kind === 'sse' ? 'sse' : 'streamable-http';
  const f = p.figures;
  const report: LiveReport = {
    target: {
      kind: target.kind,
      description: `${target.description}; full menu from ${upstream.source}`,
      discovery_tool: s.discoveryTool,
      arg_names: { ...s.argNames },
      transport,
    },
    style: p.style.style,
    style_reason: p.style.reason,
    discovery: measured.discovery,
    calls: counts,
    status,
    ...(p.passthrough ? { passthrough: p.passthrough } : {}),
    ...(cheap?.row ? { cheap_call: { ...cheap.row, mean_ms: cheap.row.mean_ms ?? 0 } } : {}),
    ...(p.notComputed.length ? { not_computed: p.notComputed } : {}),
    proxy: p.proxyInfo,
    corpus_id: p.corpusId,
    menus: f.menus,
    authoritative_headline: p.headlineReason === null,
    responses: f.responses,
    response_summary: f.response_summary,
    retrieval: f.retrieval,
    latency: f.latency,
    economics: f.economics,
    ...(p.resultCost ? { result_cost: p.resultCost } : {}),
    lap: f.lap,
    errors: p.errors,
  };
  if (p.headlineReason) report.headline_reason = p.headlineReason;
  return report;
}
