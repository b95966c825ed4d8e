/**
 * Proof the gate can fail: deliberately broken proxies (test-only switches of the reference proxy)
 * make exactly the intended cell/step red and nothing else. Split in three files to stay well
 * under the per-file test timeout on a loaded machine: the recovery cases and the advisory step
 * are in sabotage-recovery.test.ts, the planted-bug gateways in sabotage-gateways.test.ts.
 * Real processes, real loopback HTTP; cases run concurrently (each has its own ports and folders).
 */
import { describe } from 'node:test';
import { SABOTAGE, type SabotageCase, SABOTAGE_SUITE, sabotageCases } from './helpers.ts';

const CASES: SabotageCase[] = [
  { name: '_meta dropped -> meta', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'drop-meta' }, red: { 'stdio/2025-11-25': 'meta' } },
  {
    name: 'calls serialized -> concurrency',
    cells: ['stdio/2026-07-28'],
    env: { [SABOTAGE]: 'serialize' },
    red: { 'stdio/2026-07-28': 'concurrency' },
  },
  {
    name: 'no call timeout -> hang',
    cells: ['http-stateless/2025-11-25'],
    env: { [SABOTAGE]: 'no-timeout' },
    red: { 'http-stateless/2025-11-25': 'hang' },
  },
  {
    name: 'cancellations swallowed -> cancel',
    cells: ['stdio/2025-11-25'],
    env: { [SABOTAGE]: 'swallow-cancel' },
    red: { 'stdio/2025-11-25': ['cancel', 'progress'] },
  },
  {
    name: 'progress swallowed -> progress',
    cells: ['stdio/2026-07-28'],
    env: { [SABOTAGE]: 'drop-progress' },
    red: { 'stdio/2026-07-28': 'progress' },
  },
  {
    name: 'progress calls not cancelled upstream -> progress',
    cells: ['http-stateless/2025-11-25'],
    env: { [SABOTAGE]: 'progress-no-cancel' },
    red: { 'http-stateless/2025-11-25': 'progress' },
  },
  // allowed (a receiver MAY restart its timeout on progress): the long call fails at the timeout, green
  {
    name: 'progress does not restart the call timeout -> nothing red',
    cells: ['http-stateful/2025-11-25'],
    env: { [SABOTAGE]: 'progress-no-restart' },
    red: {},
  },
  // ...but then the proxy's own timeout cancels the second call upstream at the timeout: not the client's cancel
  {
    name: 'no restart and cancels swallowed -> cancel and progress',
    cells: ['sse/2026-07-28'],
    env: { [SABOTAGE]: 'progress-no-restart,swallow-cancel' },
    red: { 'sse/2026-07-28': ['cancel', 'progress'] },
  },
  // both eras: list_changed ignored (2025-11-25), no subscriptions/listen and ttlMs ignored (2026-07-28)
  {
    name: 'stale index -> freshness',
    cells: ['stdio/2025-11-25', 'http-stateless/2026-07-28'],
    env: { [SABOTAGE]: 'stale-index' },
    red: { 'stdio/2025-11-25': 'freshness', 'http-stateless/2026-07-28': 'freshness' },
  },
];

describe('sabotaged proxies go red exactly where they should', SABOTAGE_SUITE, () => sabotageCases(CASES));
