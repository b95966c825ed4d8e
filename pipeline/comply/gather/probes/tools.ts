/** Probes of the tools checks: the lists (three, for stability and order), the harmless call, the structured call, the second page. */
import { listOf, pickTool, req, type Probe } from './kit.ts';

export const TOOLS_PROBES: readonly Probe[] = [
  { id: 'tools-list', stage: 2, build: (c) => req(c, 'tools/list') },
  { id: 'tools-list-2', stage: 2, build: (c) => req(c, 'tools/list') },
  { id: 'tools-list-3', stage: 2, build: (c) => req(c, 'tools/list') },
  {
    id: 'tools-call',
    stage: 3,
    build: (c) => {
      const t = pickTool(listOf(c, 'tools-list', 'tools'));
      return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }) : null;
    },
  },
  {
    id: 'tools-call-structured',
    stage: 3,
    build: (c) => {
      const withSchema = listOf(c, 'tools-list', 'tools').filter((t) => t.outputSchema && typeof t.outputSchema === 'object');
      const t = pickTool(withSchema);
      return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }) : null;
    },
  },
  {
    id: 'tools-list-page2',
    stage: 3,
    build: (c) => {
      const cur = c.result('tools-list')?.nextCursor;
      return typeof cur === 'string' ? req(c, 'tools/list', { cursor: cur }) : null;
    },
  },
];
