/**
 * Proof the gate can fail (part of the sabotage cases, test/gate/sabotage-cases.ts): the reference proxy's call path broken by its test-only switches.
 * Real processes, real loopback HTTP.
 */
import { runSabotageCases } from './sabotage-cases.ts';

runSabotageCases([
  "_meta dropped -> call",
  "calls serialized -> concurrency",
  "no call timeout -> hang",
]);
