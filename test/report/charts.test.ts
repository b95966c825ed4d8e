/**
 * The compiled-chart cache (report/charts.ts compiledChart): a chart's Vega-Lite compile is kept
 * under .cache/charts/ and read back; what renders from it is what a fresh compile renders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_ROOT } from '../../pipeline/constants.ts';
import { chartWarnings, forgetCompiledCharts, renderChartSvgHere } from '../../pipeline/report/charts.ts';

const DIR = join(CACHE_ROOT, 'charts');
const ROWS = [
  { series: 'bm25f', k: 1, recall: 0.5 },
  { series: 'bm25f', k: 3, recall: 0.75 },
  { series: 'dense', k: 1, recall: 0.6 },
  { series: 'dense', k: 3, recall: 0.9 },
];

/** the cache files whose text holds `mark` (the note a test gave its chart, so the key is its own) */
function entriesWith(mark: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(DIR);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json') && readFileSync(join(DIR, n), 'utf8').includes(mark)).map((n) => join(DIR, n));
}

test('a chart compile is kept in .cache/charts and read back: the same SVG, and the entry is what renders', async () => {
  const note = `cache-test-${randomUUID()}`;
  const other = `cache-test-${randomUUID()}`;
  try {
    const first = await renderChartSvgHere('recall_curves', ROWS, note);
    assert.ok(first.includes(note), 'the note is drawn in the subtitle');
    const [file, ...more] = entriesWith(note);
    assert.ok(file && more.length === 0, `one cache entry for the chart: ${[file, ...more].join(', ')}`);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as {
      vega: { data: Array<{ name: string; values?: unknown }> };
      warnings: string[];
    };
    assert.ok(
      entry.vega.data.some((d) => d.name === 'table' && d.values === undefined),
      'the entry keeps the data entry, without the rows',
    );
    // other rows, same spec: the same entry (the compile reads no data); another note: another entry
    await renderChartSvgHere('recall_curves', ROWS.slice(0, 2), note);
    assert.equal(entriesWith(note).length, 1);
    await renderChartSvgHere('recall_curves', ROWS, other);
    assert.equal(entriesWith(other).length, 1);
    assert.notEqual(entriesWith(other)[0], file);

    // read from memory, then from disk: the SVG of the fresh compile
    assert.equal(await renderChartSvgHere('recall_curves', ROWS, note), first);
    forgetCompiledCharts();
    assert.equal(await renderChartSvgHere('recall_curves', ROWS, note), first);

    // the disk entry is what renders: a planted title and warning come out
    const planting = JSON.parse(readFileSync(file, 'utf8').split(note).join('PLANTED-SUBTITLE')) as typeof entry;
    planting.warnings = ['planted warning'];
    writeFileSync(file, JSON.stringify(planting));
    forgetCompiledCharts();
    const planted = await renderChartSvgHere('recall_curves', ROWS, note);
    assert.ok(planted.includes('PLANTED-SUBTITLE') && !planted.includes(note), 'the planted entry rendered');
    assert.deepEqual(chartWarnings.get('recall_curves'), ['planted warning']);

    // an entry that is not a compiled chart is compiled again, and replaced
    for (const bad of ['{not json', '{"vega":null,"warnings":[]}', '[]']) {
      writeFileSync(file, bad);
      forgetCompiledCharts();
      assert.equal(await renderChartSvgHere('recall_curves', ROWS, note), first, `entry ${bad}`);
      assert.deepEqual(chartWarnings.get('recall_curves'), []);
      assert.ok(JSON.parse(readFileSync(file, 'utf8')).vega, 'the entry was written again');
    }
  } finally {
    for (const f of [...entriesWith(note), ...entriesWith(other), ...entriesWith('PLANTED-SUBTITLE')]) rmSync(f, { force: true });
    forgetCompiledCharts();
  }
});

test('every chart template names its data "table" (the compiled spec gets the rows there)', () => {
  for (const f of readdirSync(join(import.meta.dirname, '..', '..', 'reports-template', 'charts'))) {
    const spec = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'reports-template', 'charts', f), 'utf8')) as {
      data?: unknown;
    };
    assert.deepEqual(spec.data, { name: 'table' }, f);
  }
});
