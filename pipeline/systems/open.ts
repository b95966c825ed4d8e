/**
 * Start (or reach) one system of a side-by-side run in front of given upstreams and wait until
 * it is ready: the kind's `open` (kinds/<kind>.ts; proxy kinds share proxy-open.ts).
 */
import { systemKind } from './kinds/index.ts';
import type { SystemSpec } from './kinds/index.ts';
import type { OpenedSystem, SystemContext } from './types.ts';

export { MCPGAUGE_BIN, type OpenedSystem, type SystemContext } from './types.ts';

/** Opens one system in front of `ctx.upstreams` and waits until it is ready. */
export function openSystem(spec: SystemSpec, ctx: SystemContext): Promise<OpenedSystem> {
  return systemKind(spec.kind).open(spec, ctx);
}
