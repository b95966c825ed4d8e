/** Probes added for the security checks (a group file: the core list lives in probes.ts). */
import type { Probe } from './probe-kit.ts';

export const SECURITY_PROBES: readonly Probe[] = [];
