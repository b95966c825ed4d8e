/**
 * Proof the network cells can fail (the sabotage matrix, network part): `net-no-deadline` makes the
 * reference proxy leave HTTP upstream calls to its HTTP client's own timeouts. Exactly the network
 * verdicts whose fault never answers go red (latency beyond the call timeout, a half-open peer, a
 * cut body whose close is delayed); the faults that answer by themselves (a reset, a cut body that
 * closes, latency within the timeout) stay green, and so does a stdio cell (its upstream keeps the
 * deadline). Skipped where Go is missing and no toxiproxy build is cached.
 */
import { describe } from 'node:test';
import { SABOTAGE, type SabotageCase, SABOTAGE_SUITE, sabotageCases } from './helpers.ts';
import { NO_TOXIPROXY } from './network-helpers.ts';

const CELL = 'net:http-stateless/2026-07-28';
const CASES: SabotageCase[] = [
  {
    name: 'no deadline on HTTP upstreams -> net-latency-beyond, net-timeout, net-slow-close',
    cells: ['stdio/2025-11-25', CELL],
    env: { [SABOTAGE]: 'net-no-deadline' },
    red: { [CELL]: ['net-latency-beyond', 'net-timeout', 'net-slow-close'] },
    skip: NO_TOXIPROXY,
  },
];

describe('a sabotaged proxy goes red exactly at the network faults it cannot survive', SABOTAGE_SUITE, () => sabotageCases(CASES));
