/**
 * The compiled-chart cache (report/charts.ts compiledChart): a chart's Vega-Lite compile is kept
 * under .cache/charts/ and read back; what the page gets from it is what a fresh compile gives;
 * an entry that is not a compiled chart is compiled again. And the figure the page draws from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_ROOT } from '../../pipeline/constants.ts';
import { chartFigure, chartWarnings, compiledChart, forgetCompiledCharts } from '../../pipeline/report/charts.ts';
import { PACKED_ROWS_TYPE, unpackRows } from '../../pipeline/report/pack.ts';

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

const subtitleOf = (vega: Record<string, unknown>) => JSON.stringify((vega.title as { subtitle?: unknown } | undefined)?.subtitle ?? null);

test('a chart compile is kept in .cache/charts and read back: the same spec, and the entry is what the page gets', async () => {
  const note = `cache-test-${randomUUID()}`;
  const other = `cache-test-${randomUUID()}`;
  try {
    const first = await compiledChart('recall_curves', note);
    assert.ok(subtitleOf(first.vega).includes(note), 'the note is in the subtitle');
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
    // another note: another entry
    await compiledChart('recall_curves', other);
    assert.equal(entriesWith(other).length, 1);
    assert.notEqual(entriesWith(other)[0], file);

    // read from memory, then from disk: the spec of the fresh compile
    assert.deepEqual(await compiledChart('recall_curves', note), first);
    forgetCompiledCharts();
    assert.deepEqual(await compiledChart('recall_curves', note), first);

    // the disk entry is what the page gets: a planted title and warning come out
    const planting = JSON.parse(readFileSync(file, 'utf8').split(note).join('PLANTED-SUBTITLE')) as typeof entry;
    planting.warnings = ['planted warning'];
    writeFileSync(file, JSON.stringify(planting));
    forgetCompiledCharts();
    const figure = (await chartFigure({ kind: 'chart', spec: 'recall_curves', rows: ROWS, note, empty: 'none' })).value;
    const packed = new RegExp(`<script type="${PACKED_ROWS_TYPE.replace('+', '\\+')}" class="chart-data">([A-Za-z0-9+/=]+)</script>`).exec(
      figure,
    );
    assert.ok(packed, figure.slice(0, 300));
    const payload = unpackRows(packed[1]) as { spec: Record<string, unknown>; rows: unknown[] };
    assert.ok(
      subtitleOf(payload.spec).includes('PLANTED-SUBTITLE') && !subtitleOf(payload.spec).includes(note),
      'the planted entry is drawn',
    );
    assert.deepEqual(payload.rows, ROWS);
    assert.deepEqual(chartWarnings.get('recall_curves'), ['planted warning']);

    // an entry that is not a compiled chart is compiled again, and replaced
    for (const bad of ['{not json', '{"vega":null,"warnings":[]}', '{"vega":[],"warnings":[]}', '[]']) {
      writeFileSync(file, bad);
      forgetCompiledCharts();
      assert.deepEqual(await compiledChart('recall_curves', note), first, `entry ${bad}`);
      assert.deepEqual(chartWarnings.get('recall_curves'), []);
      assert.ok(JSON.parse(readFileSync(file, 'utf8')).vega.data, 'the entry was written again');
    }
  } finally {
    for (const f of [...entriesWith(note), ...entriesWith(other), ...entriesWith('PLANTED-SUBTITLE')]) rmSync(f, { force: true });
    forgetCompiledCharts();
  }
});

test('a chart without rows is a "no data" note, with nothing for the page to draw', async () => {
  const f = (await chartFigure({ kind: 'chart', spec: 'recall_curves', rows: [], empty: 'no <golden> set' })).value;
  assert.match(
    f,
    /^<figure class="chart nodata" data-chart="recall_curves"><figcaption>[^<]+<\/figcaption><p class="nodata-note">No data: no &lt;golden&gt; set\.<\/p><\/figure>$/,
  );
  assert.doesNotMatch(f, /chart-data/);
});

test('every chart template names its data "table" (the compiled spec gets the rows there)', () => {
  for (const f of readdirSync(join(import.meta.dirname, '..', '..', 'reports-template', 'charts'))) {
    const spec = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'reports-template', 'charts', f), 'utf8')) as {
      data?: unknown;
    };
    assert.deepEqual(spec.data, { name: 'table' }, f);
  }
});
