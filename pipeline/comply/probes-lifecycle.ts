/** Probes added for the lifecycle, resources, prompts and schema checks (a group file: the core list lives in probes.ts). */
import type { Probe } from './probe-kit.ts';

export const LIFECYCLE_PROBES: readonly Probe[] = [];
