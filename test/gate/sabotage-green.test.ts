/**
 * Proof the gate can fail (part of the sabotage cases, test/gate/sabotage-cases.ts): the correct pass-through gateway stays green, and the fixture itself grades A.
 * Real processes, real loopback HTTP.
 */
import { runSabotageCases } from './sabotage-cases.ts';

runSabotageCases([
  "the correct pass-through gateway is green (and the fixture itself grades A)",
]);
