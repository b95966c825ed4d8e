/**
 * The chart worker thread (charts.ts `startChartWorker`): loads vega + vega-lite as soon as it
 * starts (while the main thread runs the offline stage), then renders each chart it is sent with
 * the same function the main thread would use (`renderChartSvgHere`), so the SVG is the same.
 *   in:  { id, spec, rows, note?, color? }
 *   out: { id, svg, warnings } | { id, error }
 */
import { parentPort } from 'node:worker_threads';
import { chartWarnings, renderChartSvgHere, type ChartJob, type ChartReply } from './charts.ts';

if (!parentPort) throw new Error('chart_worker.ts must run in a worker thread');
const port = parentPort;
const ready = Promise.all([import('vega'), import('vega-lite')]);
port.on('message', (job: ChartJob) => {
  void ready
    .then(() => renderChartSvgHere(job.spec, job.rows, job.note, job.color))
    .then(
      (svg): ChartReply => ({ id: job.id, svg, warnings: chartWarnings.get(job.spec) ?? [] }),
      (e: unknown): ChartReply => ({ id: job.id, error: e instanceof Error ? e.message : String(e) }),
    )
    .then((reply) => port.postMessage(reply));
});
