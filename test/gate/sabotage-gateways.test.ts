/**
 * Proof the gate can fail, part 2 (split from sabotage.test.ts to stay under the per-file test
 * timeout): small pass-through gateways with planted bugs make exactly the intended cell/step red and
 * nothing else. Real processes, real loopback HTTP; cases run concurrently (each has its own
 * ports and folders).
 */
import { describe } from 'node:test';
import { gateway, type SabotageCase, SABOTAGE_SUITE, sabotageCases } from './helpers.ts';

// a pass-through gateway lists every upstream tool of the cell's roles: more than the reference
// proxy's menu budget (its discovery menu), so the budget step would be red for every case here
const fullMenu = (c: any) => {
  c.budgets.menu_tokens = 4000;
};

const CASES: SabotageCase[] = [
  {
    name: 'pass-through gateway that never re-spawns its child -> crash',
    cells: ['stdio/2025-11-25'],
    patch: fullMenu,
    args: gateway('no-respawn'),
    red: { 'stdio/2025-11-25': 'crash' },
  },
  {
    name: "gateway delivering one session's result to another -> isolation",
    cells: ['http-stateless/2025-11-25'],
    patch: fullMenu,
    args: gateway('mix-sessions'),
    red: { 'http-stateless/2025-11-25': 'isolation' },
  },
  {
    name: 'gateway exiting when its upstream dies -> crash',
    cells: ['stdio/2025-11-25'],
    patch: fullMenu,
    args: gateway('exit-on-death'),
    red: { 'stdio/2025-11-25': 'crash' },
  },
  {
    name: 'the correct pass-through gateway is green (and the fixture itself grades A)',
    cells: ['stdio/2025-11-25'],
    patch: fullMenu,
    args: gateway(),
    red: {},
    fixtureGrade: true,
  },
];

describe('sabotaged gateways go red exactly where they should', SABOTAGE_SUITE, () => sabotageCases(CASES));
