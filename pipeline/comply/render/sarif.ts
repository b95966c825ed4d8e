/**
 * SARIF 2.1.0: one run per (revision, wire); one rule per check executed, one result per
 * failing check (level error for MUST, warning otherwise). The artifact is the target.
 */
import { isRequired } from '../output/grade.ts';
import type { ComplyReport } from '../types.ts';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export function sarifOf(rep: ComplyReport): Record<string, unknown> {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: rep.runs.map((r) => {
      const rules = r.results.map((x) => ({
        id: x.id,
        name: x.id,
        shortDescription: { text: x.meta.title },
        fullDescription: { text: `Requirement (our summary, not a quotation): ${x.meta.spec.requirement}` },
        helpUri: x.meta.spec.url,
        help: { text: x.meta.fix },
        properties: { category: x.meta.category, severity: x.meta.severity, basis: x.meta.basis },
      }));
      const index = new Map(rules.map((ru, i) => [ru.id, i]));
      return {
        tool: {
          driver: {
            name: 'mcpgauge-comply',
            version: rep.tool.version,
            informationUri: 'https://modelcontextprotocol.io/specification',
            rules,
          },
        },
        automationDetails: { id: `mcpgauge-comply/${r.revision}/${r.wire}/` },
        invocations: [
          {
            executionSuccessful: true,
            properties: {
              grade: r.conformance.grade,
              uncappedGrade: r.conformance.uncapped,
              cap: r.conformance.cap,
              capApplied: r.conformance.capApplied,
              failingMust: r.conformance.failingMust,
              score: r.conformance.score,
              coverage: r.conformance.coverage,
              revision: r.revision,
              wire: r.wire,
              grading: rep.grading.rule,
            },
          },
        ],
        results: r.results
          .filter((x) => x.status === 'fail')
          .map((x) => ({
            ruleId: x.id,
            ruleIndex: index.get(x.id),
            level: isRequired(x.meta) ? 'error' : 'warning',
            message: { text: `${x.detail}. Requirement (our summary): ${x.meta.spec.requirement} Fix: ${x.meta.fix}` },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: {
                    uri: rep.target.startsWith('http') ? rep.target : `stdio:${encodeURIComponent(rep.target.slice(6))}`,
                  },
                },
              },
            ],
          })),
      };
    }),
  };
}

export function renderSarif(rep: ComplyReport): string {
  return `${JSON.stringify(sarifOf(rep), null, 2)}\n`;
}
