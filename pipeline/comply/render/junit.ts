/** JUnit XML: one testsuite per run, one testcase per check (fail = failure, others = skipped). */
import type { ComplyReport } from '../types.ts';
import { esc, statusLabel } from './common.ts';

export function renderJunit(rep: ComplyReport): string {
  const suites = rep.runs.map((r) => {
    const cases = r.results.map((x) => {
      const name = `${esc(x.id)}`;
      const cls = `mcpgauge.comply.${r.revision}.${r.wire}.${x.meta.category}`;
      if (x.status === 'pass') return `    <testcase classname="${cls}" name="${name}"/>`;
      if (x.status === 'fail') return `    <testcase classname="${cls}" name="${name}"><failure type="${x.meta.severity}" message="${esc(x.detail)}">${esc(`${x.meta.spec.sentence}\n${x.meta.spec.url}\nFix: ${x.meta.fix}`)}</failure></testcase>`;
      return `    <testcase classname="${cls}" name="${name}"><skipped message="${esc(`${statusLabel(x)}: ${x.detail}`)}"/></testcase>`;
    });
    const failures = r.results.filter((x) => x.status === 'fail').length;
    const skipped = r.results.filter((x) => x.status !== 'pass' && x.status !== 'fail').length;
    return `  <testsuite name="${esc(`${rep.target} ${r.revision} ${r.wire}`)}" tests="${r.results.length}" failures="${failures}" skipped="${skipped}" errors="0">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcpgauge comply">\n${suites.join('\n')}\n</testsuites>\n`;
}
