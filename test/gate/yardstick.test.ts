/**
 * The gate grades its own yardstick once per run: the fixture on stdio (both eras), stateless
 * HTTP (both eras) and stateful HTTP (legacy sessions). A broken fixture fails the step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gradeYardstick } from '../../pipeline/gate/yardstick.ts';
import { loadGateConfig } from '../../pipeline/gate/config.ts';
import { validateGateReport } from '../../pipeline/gate/report.ts';
import { REPO } from './helpers.ts';

const base = loadGateConfig(join(REPO, 'gate.config.json'));
const cfg = { ...base, timeouts: { ...base.timeouts, ready_ms: 90_000, step_ms: 30_000 } };

test('a fixture that serves no handshake fails the yardstick (no grade on any wire), naming why', async () => {
  const y = await gradeYardstick(cfg, { fixtureEnv: { FIXTURE_BREAK: 'no-handshake' } });
  assert.equal(y.status, 'fail');
  assert.equal(y.runs.length >= 3, true, JSON.stringify(y.runs));
  assert.ok(
    y.runs.every((r) => r.grade === null || r.grade === 'F'),
    JSON.stringify(y.runs),
  );
  assert.match(y.reason, /^the fixture itself grades below B: /);
});

test('no "compliance" block: skipped with the reason, nothing started', async () => {
  const { compliance: _c, ...noCompliance } = cfg;
  const y = await gradeYardstick(noCompliance);
  assert.deepEqual([y.status, y.runs.length, y.reason], ['skipped', 0, 'no "compliance" block in the gate config']);
  // the schema accepts the block as the report carries it
  const errs = validateGateReport({ fixture_compliance: y });
  assert.ok(!errs.some((e) => e.includes('fixture_compliance')), errs.join('; '));
});
