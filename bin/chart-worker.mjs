// The chart worker thread of the compiled CLI (pipeline/report/charts.ts startChartWorker starts
// this file): the chart worker's light bundle (dist/chart-bundle/chart_worker.cjs: vega, vega-lite
// and the renderer in one CommonJS file, scripts/lib/bundle.mjs) run with V8's code cache by
// ./dist-entry.mjs requireLight. The main thread ends this thread, so its code cache is written
// when the first charts are answered (whenIdle), not at exit.
import { requireLight, writeLightCaches } from './dist-entry.mjs';

requireLight('chart_worker', 'chart-bundle').whenIdle(writeLightCaches);
