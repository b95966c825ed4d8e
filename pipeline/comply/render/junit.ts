/** JUnit XML: one testsuite per run, one testcase per check (fail = failure, others = skipped). */
import type { ComplyReport } from '../types.ts';
import { xml } from '../../util/escape.ts';
import { capText, severityText, statusLabel } from './common.ts';

export function renderJunit(rep: ComplyReport): string {
  const suites = rep.runs.map((r) => {
    const cases = r.results.map((x) => {
      const name = `${xml(x.id)}`;
      const cls = `mcpgauge.comply.${r.revision}.${r.wire}.${x.meta.category}`;
      if (x.status === 'pass') return `    <testcase classname="${cls}" name="${name}"/>`;
      if (x.status === 'fail')
        return `    <testcase classname="${cls}" name="${name}"><failure type="${xml(severityText(x.meta))}" message="${xml(x.detail)}">${xml(`Requirement (our summary): ${x.meta.spec.requirement}\n${x.meta.spec.url}\nFix: ${x.meta.fix}`)}</failure></testcase>`;
      return `    <testcase classname="${cls}" name="${name}"><skipped message="${xml(`${statusLabel(x)}: ${x.detail}`)}"/></testcase>`;
    });
    const failures = r.results.filter((x) => x.status === 'fail').length;
    const skipped = r.results.filter((x) => x.status !== 'pass' && x.status !== 'fail').length;
    const g = r.conformance;
    const props = `    <properties>\n      <property name="grade" value="${xml(String(g.grade))}"/>\n      <property name="score" value="${xml(String(g.score))}"/>\n      <property name="cap" value="${xml(capText(g))}"/>\n      <property name="grading" value="${xml(rep.grading.rule)}"/>\n      <property name="requirement-text" value="${xml(rep.grading.requirementText)}"/>\n    </properties>`;
    return `  <testsuite name="${xml(`${rep.target} ${r.revision} ${r.wire}`)}" tests="${r.results.length}" failures="${failures}" skipped="${skipped}" errors="0">\n${props}\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcpgauge comply">\n${suites.join('\n')}\n</testsuites>\n`;
}
