/**
 * Child process for the hostile-server test: runs the prober against one target and prints
 * one JSON line with the report essentials and this process's peak RSS (resourceUsage).
 * Usage: node --import tsx probe-child.ts <timeoutMs> <startupMs> <target...>
 */
import { comply } from '../../../pipeline/comply/comply.ts';
import { parseTarget } from '../../../pipeline/comply/gather/server-target.ts';

const [timeoutMs, startupMs, ...words] = process.argv.slice(2);
const t0 = Date.now();
const { report } = await comply(parseTarget(words, {}), {
  spec: 'auto',
  timeoutMs: Number(timeoutMs),
  startupTimeoutMs: Number(startupMs),
  selection: { only: [], skip: [] },
  invasive: true,
  secrets: [],
});
const runs = report.runs.map((r) => ({
  revision: r.revision,
  grade: r.conformance.grade,
  failing: r.results.filter((x) => x.status === 'fail').map((x) => `${x.id}: ${x.detail}`),
  warnings: r.warnings,
}));
process.stdout.write(
  `${JSON.stringify({ ms: Date.now() - t0, maxRssKb: process.resourceUsage().maxRSS, era: report.era, runs, warnings: report.warnings })}\n`,
);
