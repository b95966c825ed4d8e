/**
 * One visual language (issue 30): across every chart of the dashboard, each arm, mode,
 * tokenizer, system and response component has one colour, and no colour names two things.
 * Every chart that colours by a data field carries its palette mapping (none is left to
 * Vega's default scheme, which is what made orange mean compact_json in one chart and
 * compact_sig in the next), and the mapping reaches the SVG.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { compiledChart, loadChartSpec } from '../../pipeline/report/dashboard.ts';
import type { ChartRef } from '../../pipeline/report/details.ts';
import type { Report } from '../../pipeline/report/types.ts';
import { buildSampleReport, buildSystemsSample, withVariants } from './sample.ts';

function chartsOf(r: Report): ChartRef[] {
  return REPORT_SECTIONS.filter((s) => !s.appliesTo || s.appliesTo(r)).flatMap((s) =>
    s.build(r).blocks.flatMap((b) => (b.kind === 'charts' ? b.charts : [])),
  );
}

/** the data field of every colour encoding of a spec (top level, facet spec, layers) */
function colorFields(spec: unknown): string[] {
  const out: string[] = [];
  const walk = (o: unknown): void => {
    if (Array.isArray(o)) {
      o.forEach(walk);
      return;
    }
    if (!o || typeof o !== 'object') return;
    const rec = o as Record<string, unknown>;
    const c = (rec.encoding as Record<string, { field?: string }> | undefined)?.color;
    if (c?.field) out.push(c.field);
    for (const k of ['spec', 'layer']) if (k in rec) walk(rec[k]);
  };
  walk(spec);
  return out;
}

for (const [name, report, least] of [
  ['sample', withVariants(buildSampleReport()), 8],
  ['systems sample', buildSystemsSample(), 2],
] as const) {
  test(`${name}: one colour per thing across every chart, no colour for two things`, () => {
    const charts = chartsOf(report).filter((c) => c.rows.length > 0);
    assert.ok(charts.length >= least, `charts found: ${charts.length}`);
    const colorOf = new Map<string, { color: string; chart: string }>();
    const thingOf = new Map<string, { thing: string; chart: string }>();
    for (const c of charts) {
      for (const field of colorFields(loadChartSpec(c.spec))) {
        assert.ok(c.color, `chart ${c.spec} colours by "${field}" but carries no palette mapping`);
        assert.equal(c.color.field, field, `chart ${c.spec}: palette field`);
      }
      if (!c.color) continue;
      c.color.kinds.forEach((k, i) => {
        const thing = `${k.kind}:${k.id}`;
        const color = c.color!.range[i];
        const seen = colorOf.get(thing);
        assert.ok(!seen || seen.color === color, `${thing} is ${seen?.color} in ${seen?.chart} and ${color} in ${c.spec}`);
        colorOf.set(thing, { color, chart: c.spec });
        const other = thingOf.get(color);
        assert.ok(!other || other.thing === thing, `${color} means ${other?.thing} in ${other?.chart} and ${thing} in ${c.spec}`);
        thingOf.set(color, { thing, chart: c.spec });
      });
    }
    assert.ok(colorOf.size >= least, `things coloured: ${[...colorOf.keys()].join(', ')}`);
  });
}

test('the palette reaches the chart the page draws: its colour scale maps each value to its colour', async () => {
  const c = chartsOf(buildSampleReport()).find((x) => x.spec === 'recall_curves')!;
  const { vega } = await compiledChart(c.spec, c.note, c.color);
  const scales = (vega.scales ?? []) as { name: string; domain?: unknown; range?: unknown }[];
  const color = scales.find((s) => s.name === 'color');
  assert.ok(color, `recall_curves has a colour scale: ${scales.map((s) => s.name).join(', ')}`);
  assert.deepEqual(color.domain, c.color!.domain);
  assert.deepEqual(color.range, c.color!.range);
});
