/**
 * Proof the gate can fail (part of the sabotage cases, test/gate/sabotage-cases.ts): a small pass-through gateway with planted bugs.
 * Real processes, real loopback HTTP.
 */
import { runSabotageCases } from './sabotage-cases.ts';

runSabotageCases([
  "pass-through gateway that never re-spawns its child -> crash",
  "gateway delivering one session's result to another -> isolation",
  "gateway exiting when its upstream dies -> crash",
]);
