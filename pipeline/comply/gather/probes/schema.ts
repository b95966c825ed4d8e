/** Probes of the schema checks (the lists and gets they read are the tools, resources and prompts probes). */
import { M, listOf, pickPrompt, req, type Probe } from './kit.ts';

export const SCHEMA_PROBES: readonly Probe[] = [
  // 2026-07-28: the last listed prompt when there are several (prompts-get reads the first), where a multi round-trip answer may show up
  {
    id: 'prompts-get-last',
    stage: 3,
    revisions: M,
    build: (c) => {
      const l = listOf(c, 'prompts-list', 'prompts');
      const p = l.length > 1 ? pickPrompt(l.slice(-1)) : null;
      return p ? req(c, 'prompts/get', { name: p.name, arguments: p.args }) : null;
    },
  },
];
