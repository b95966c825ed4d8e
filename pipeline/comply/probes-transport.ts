/** Probes added for the transport and stdio checks (a group file: the core list lives in probes.ts). */
import type { Probe } from './probe-kit.ts';

export const TRANSPORT_PROBES: readonly Probe[] = [];
