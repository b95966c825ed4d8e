/**
 * bench-perf section "conformance": the official MCP conformance suite (0.1.16, every server
 * scenario, one CLI invocation on Node 22, start-up included) and `mcpgauge comply` (the whole
 * catalog at 2025-11-25, the revision the suite speaks, in this process) against the same fixture
 * process (stateful streamable HTTP, loopback, FIXTURE_FEATURES with the conformance surface),
 * in the same run. Printed: median wall times of 3 rounds each, what each evaluated, and the
 * ratio. Nothing asserted. The suite is installed into .cache/peers/conformance on first use.
 */
import { ensureSuite, runSuite } from '../../pipeline/fixture/conformance/suite.ts';
import { startFixtureProcess } from '../../pipeline/fixture/launch.ts';
import { comply } from '../../pipeline/comply/comply.ts';

const ROUNDS = 3;
const FEATURES = 'resources,prompts,completions,logging,progress,urls,subscribe,mrtr,conformance';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const peer = await ensureSuite();
const fx = await startFixtureProcess({
  transport: 'streamable-http',
  args: ['--max-sessions', '100000'],
  env: { FIXTURE_FEATURES: FEATURES },
  readyTimeoutMs: 60_000,
});
try {
  const suiteMs: number[] = [];
  const complyMs: number[] = [];
  let suiteLine = '';
  let complyLine = '';
  // alternate the two so load changes on the machine hit both alike
  for (let i = 0; i < ROUNDS; i++) {
    const s = await runSuite(peer, { url: fx.url });
    suiteMs.push(s.wallMs);
    const checks = s.scenarios.reduce((n, v) => n + v.succeeded + v.failed, 0);
    suiteLine = `${s.scenarios.filter((v) => v.passed).length}/${s.scenarios.length} scenarios passed, ${checks} checks`;
    const t0 = performance.now();
    const { report } = await comply(
      { kind: 'http', url: fx.url, headers: {} },
      { spec: '2025-11-25', timeoutMs: 15_000, startupTimeoutMs: 60_000, selection: { only: [], skip: [] }, invasive: true, secrets: [] },
    );
    complyMs.push(performance.now() - t0);
    const r = report.runs[0];
    complyLine = `${r.conformance.evaluated + r.security.evaluated}/${r.conformance.applicable + r.security.applicable} checks evaluated, grade ${r.conformance.grade}`;
  }
  const [a, b] = [median(suiteMs), median(complyMs)];
  console.log(
    `official suite 0.1.16 (Node 22 CLI, --suite all): wall ${a.toFixed(0)} ms (median of ${ROUNDS}, start-up included); ${suiteLine}`,
  );
  console.log(`mcpgauge comply (2025-11-25, HTTP, in process): wall ${b.toFixed(0)} ms (median of ${ROUNDS}); ${complyLine}`);
  console.log(`ratio suite/comply: ${(a / b).toFixed(2)}x (same fixture process, same run; not asserted)`);
} finally {
  await fx.stop();
}
