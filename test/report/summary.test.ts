/** The console summary (report/summary.ts): the sections' `summary` lines in the dashboard's section order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASELINE_ARM_ID } from '../../pipeline/constants.ts';
import { tokenChange } from '../../pipeline/report/render.ts';
import { summaryLines } from '../../pipeline/report/summary.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { buildSampleReport, buildSystemsSample } from './sample.ts';

test('tokenChange prints savings as a signed change, never -0.0%', () => {
  assert.equal(tokenChange(12.34), '-12.3%');
  assert.equal(tokenChange(-5), '+5.0%');
  assert.equal(tokenChange(-0.04), '0.0%');
});

test('the bench summary reads the report through the section list: arms per corpus, results, live, in page order', () => {
  const r = buildSampleReport();
  const lines = summaryLines(r, REPORT_SECTIONS);
  const main = r.corpora[0];
  const head = lines.indexOf(`\n${main.id} (${main.tool_count} tools)`);
  assert.ok(head >= 0, 'corpus header');
  const base = lines.find((l) => l.startsWith(`  ${BASELINE_ARM_ID.padEnd(14)} `));
  assert.match(base ?? '', /cl100k_base +\d+ \(baseline\)/);
  const other = r.arms.find((a) => a.corpus_id === main.id && a.arm !== BASELINE_ARM_ID && !a.skipped)!;
  const sav = other.by_tokenizer.cl100k_base.savings_vs_baseline_pct.value;
  assert.ok(
    lines.some((l) => l.startsWith(`  ${other.arm.padEnd(14)} `) && l.includes(`(${tokenChange(sav)})`)),
    `${other.arm} line with its stored saving`,
  );
  const results = lines.findIndex((l) => l.startsWith('\nresult arms on '));
  const live = lines.findIndex((l) => l.startsWith('\nlive menu ('));
  assert.ok(head < results && results < live, 'arms, then results, then live (the section order)');
  const m = r.live!.menus[0];
  assert.ok(lines.includes(`\nlive menu (${m.tokenizer}): proxy ${m.proxy_menu_tokens.value} vs full ${m.full_menu_tokens.value} tokens`));
  assert.deepEqual(summaryLines(r, []), [], 'no sections, no lines');
});

test('systems and growth fits come from the systems and scale sections', () => {
  const r = buildSystemsSample();
  const lines = summaryLines(r, REPORT_SECTIONS);
  for (const s of r.systems ?? [])
    assert.ok(
      lines.some((l) => l.startsWith(`system ${s.name}: `)),
      s.name,
    );
  const sys = lines.findIndex((l) => l.startsWith('system '));
  const growth = lines.findIndex((l) => l.startsWith('growth '));
  if (r.scale?.fits.length) assert.ok(sys < growth, 'systems before growth fits');
});
