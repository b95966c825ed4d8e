/** Probes of the prompts checks: the list, a get, an unknown name, the second page. */
import { listOf, nextPage, pickPrompt, req, type Probe } from './kit.ts';

export const PROMPTS_PROBES: readonly Probe[] = [
  { id: 'prompts-list', stage: 2, build: (c) => req(c, 'prompts/list') },
  {
    id: 'prompts-get',
    stage: 3,
    build: (c) => {
      const p = pickPrompt(listOf(c, 'prompts-list', 'prompts'));
      return p ? req(c, 'prompts/get', { name: p.name, arguments: p.args }) : null;
    },
  },
  { id: 'prompts-get-unknown', stage: 3, build: (c) => req(c, 'prompts/get', { name: 'mcpgauge_no_such_prompt_7f3a', arguments: {} }) },
  { id: 'prompts-list-page2', stage: 3, build: (c) => nextPage(c, 'prompts-list', 'prompts/list') },
];
