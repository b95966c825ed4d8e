/**
 * The dashboard's chart runtime: what of Vega the page needs to draw a chart, bundled for the
 * browser at build time (scripts/lib/bundle.mjs bundlePage: dist/page/chart-runtime.js, inlined
 * by render.ts into a page that has charts and allowed by its CSP hash). Never run in Node.
 *
 * The page script (reports-template/page.js) hands it a chart as the renderer wrote it: a Vega
 * spec compiled from the chart's Vega-Lite template (charts.ts) and the rows, which go into the
 * spec's `table` data. Drawn as SVG elements into `host`. The page's Content-Security-Policy
 * allows no eval, so the spec's expressions are parsed to trees and run by Vega's interpreter
 * (`ast: true`, vega-interpreter) instead of being compiled to functions.
 *
 * Only the transforms a Vega-Lite chart compiles to are registered (vega-transforms,
 * vega-view-transforms, vega-encode): the whole of vega, with geo, force, hierarchy, label,
 * regression, voronoi, word clouds and crossfilter, is ~120 KB more of page (test/report/dashboard.test.ts draws every chart
 * template in Chromium).
 */
import type { parse as Parse, transforms as Transforms, View as ViewClass } from 'vega';
// these packages ship no types of their own: `vega`, which re-exports them, has theirs
// @ts-expect-error untyped (vega's types above)
import { transforms as registry } from 'vega-dataflow';
// @ts-expect-error untyped
import * as encode from 'vega-encode';
import { expressionInterpreter } from 'vega-interpreter';
// @ts-expect-error untyped (vega's types above)
import { parse as parseSpec } from 'vega-parser';
// @ts-expect-error untyped
import * as tx from 'vega-transforms';
// @ts-expect-error untyped (vega's types above)
import { View as ViewImpl } from 'vega-view';
// @ts-expect-error untyped
import * as vtx from 'vega-view-transforms';

const transforms = registry as typeof Transforms;
const parse = parseSpec as typeof Parse;
const View = ViewImpl as typeof ViewClass;
Object.assign(transforms, tx, vtx, encode);

/** the name of the data every chart template reads (charts.ts CHART_DATA) */
const CHART_DATA = 'table';

/** Draw `spec` with `rows` as its table into `host`; resolves when drawn, rejects with Vega's error. */
async function drawChart(host: Element, spec: Parameters<typeof Parse>[0], rows: object[]): Promise<void> {
  const view = new View(parse(spec, undefined, { ast: true }), {
    container: host,
    renderer: 'svg',
    expr: expressionInterpreter,
    hover: false,
  });
  view.data(CHART_DATA, rows);
  await view.runAsync();
}

(globalThis as { mcpgaugeDrawChart?: typeof drawChart }).mcpgaugeDrawChart = drawChart;
