/**
 * The chart worker thread (charts.ts `startChartWorker`): loads vega + vega-lite as soon as it
 * starts (while the main thread runs the offline stage), then renders each chart it is sent with
 * the same function the main thread would use (`renderChartSvgHere`), so the SVG is the same.
 *   in:  { id, spec, rows, note?, color? }
 *   out: { id, svg, warnings } | { id, error }
 * Compiled, it runs as a light bundle (dist/chart-bundle/chart_worker.cjs, started by
 * bin/chart-worker.mjs with V8's code cache), which registers a callback through `whenIdle`: the
 * first time no render is left pending, that code cache is written (the thread never gets to its
 * process exit: the main thread ends it).
 */
import { parentPort } from 'node:worker_threads';
import { chartWarnings, renderChartSvgHere, type ChartJob, type ChartReply } from './charts.ts';

if (!parentPort) throw new Error('chart_worker.ts must run in a worker thread');
const port = parentPort;
const ready = Promise.all([import('vega'), import('vega-lite')]);
let pending = 0;
let idle: (() => void) | undefined;

/** run `fn` once, the first time every chart sent so far has been answered */
export function whenIdle(fn: () => void): void {
  idle = fn;
}

port.on('message', (job: ChartJob) => {
  pending++;
  void ready
    .then(() => renderChartSvgHere(job.spec, job.rows, job.note, job.color))
    .then(
      (svg): ChartReply => ({ id: job.id, svg, warnings: chartWarnings.get(job.spec) ?? [] }),
      (e: unknown): ChartReply => ({ id: job.id, error: e instanceof Error ? e.message : String(e) }),
    )
    .then((reply) => {
      port.postMessage(reply);
      if (--pending === 0 && idle) {
        const fn = idle;
        idle = undefined;
        fn();
      }
    });
});
