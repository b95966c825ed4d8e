/**
 * Probes (the gathering half): each one is a request built from the canonical envelope, run in
 * a stage (later stages may read earlier answers). Probes never judge; checks read their
 * exchanges. One file per check category (a probe lives with the category of the checks that
 * read it; one read by several categories, with its first reader's), the shared helpers in
 * kit.ts. The list is data; gather.ts runs it stage by stage.
 */
import type { Probe } from './kit.ts';
import { TRANSPORT_PROBES } from './transport.ts';
import { LIFECYCLE_PROBES } from './lifecycle.ts';
import { TOOLS_PROBES } from './tools.ts';
import { RESOURCES_PROBES } from './resources.ts';
import { PROMPTS_PROBES } from './prompts.ts';
import { ERRORS_PROBES } from './errors.ts';
import { SCHEMA_PROBES } from './schema.ts';
import { SECURITY_PROBES } from './security.ts';

/** Every probe, by category (the order of CATEGORIES in types.ts); gather sorts them into stages. */
export const PROBES: readonly Probe[] = [
  ...TRANSPORT_PROBES,
  ...LIFECYCLE_PROBES,
  ...TOOLS_PROBES,
  ...RESOURCES_PROBES,
  ...PROMPTS_PROBES,
  ...ERRORS_PROBES,
  ...SCHEMA_PROBES,
  ...SECURITY_PROBES,
];
