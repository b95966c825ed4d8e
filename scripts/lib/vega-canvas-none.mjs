// What the chart worker's bundle (scripts/lib/bundle.mjs LIGHT_BUNDLES chart-bundle) gets for
// `vega-canvas`: no canvas, as vega-canvas itself answers in node when the optional `canvas`
// package is not installed (it tries `await import('canvas')` at the top level, which a CommonJS
// bundle cannot hold). vega then measures text by its estimate, so the SVG is the same on every
// machine, with or without `canvas` installed.
export function domCanvas() {
  return null;
}
export function nodeCanvas() {
  return null;
}
export function canvas() {
  return null;
}
export function image() {
  return null;
}
