/**
 * The compliance section renders into the same self-contained dashboard as the bench report
 * (both documents, one page), with grade tiles, per-category rows and the failing checks with
 * their requirement summaries; report text is escaped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderDashboard } from '../../pipeline/report/dashboard.ts';
import { sectionFor } from '../../pipeline/report/details.ts';
import { complianceSection } from '../../pipeline/comply/section.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { validateComplyReport } from '../../pipeline/comply/output/schema.ts';
import { buildSampleReport, HOSTILE_TEXT } from '../report/sample.ts';
import { stdioRuns } from './harness.ts';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import type { ComplyReport } from '../../pipeline/comply/types.ts';

describe('compliance section in the bench dashboard', { timeout: 120_000 }, () => {
  it('renders next to the bench sections: grade, coverage, categories, failing checks with the requirement summaries, score and cap', async () => {
    const runs = await stdioRuns('2026-07-28', { FIXTURE_BREAK: 'no-caching' });
    const comply: ComplyReport = {
      schemaVersion: '2',
      tool: { name: 'mcpgauge comply', version: '0.1.0' },
      target: 'stdio:mcpfixture',
      generatedAt: new Date().toISOString(),
      era: { choice: '2026-07-28', detected: null, reason: 'pinned' },
      runs,
      warnings: [HOSTILE_TEXT],
      provenance: { kind: 'measured', method: 'live probes' },
      grading: { rule: 'any failing MUST caps the letter at B', capApplied: true, requirementText: 'our own summary' },
    };
    validateComplyReport(comply);
    const page = await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [sectionFor(complianceSection, comply)]);
    assert.match(page, /<section id="headlines">/, 'bench sections are still there');
    const sec = page.slice(page.indexOf('<section id="compliance">'));
    assert.ok(sec.length > 100, 'the compliance section is on the page');
    const g = runs[0].conformance;
    assert.match(sec, new RegExp(`<div class="v">${g.grade}</div><div class="s">score ${g.score} · coverage`));
    assert.match(sec, /<b>lifecycle<\/b>/);
    assert.match(sec, /tools-list-caching/);
    const summary = CATALOG.find((c) => c.meta.id === 'tools-list-caching')?.meta.spec.requirement ?? '';
    assert.ok(summary.includes('ttlMs and cacheScope') && sec.includes(summary), 'the requirement summary of the failing check');
    assert.ok(sec.includes('Requirement (our summary)'), 'labelled as our summary');
    assert.ok(g.failingMust.length >= 1 && sec.includes('failing MUST'), 'the cap and the failing MUSTs next to the letter');
    assert.ok(sec.includes('caps the letter at B'), 'the cap rule is stated');
    assert.ok(!page.includes(HOSTILE_TEXT), 'report text is escaped');
  });
});
