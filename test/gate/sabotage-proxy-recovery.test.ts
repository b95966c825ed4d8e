/**
 * Proof the gate can fail (part of the sabotage cases, test/gate/sabotage-cases.ts): the reference proxy's cancel and recovery paths broken by its test-only switches.
 * Real processes, real loopback HTTP.
 */
import { runSabotageCases } from './sabotage-cases.ts';

runSabotageCases([
  "cancellations swallowed -> cancel",
  "needs a manual restart after an upstream crash -> crash",
  "reconnect disabled -> crash (HTTP+SSE upstream)",
]);
