import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-tool-list-stable',
    title: 'Tool definitions do not change between two tools/list calls (no rug pull)',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list', 'tools-list-2'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#list-changed-notification'),
      requirement:
        'Best practice: server does not change its tool definitions between two tools/list calls unannounced (one that declared listChanged SHOULD notify); a silent change is a rug pull.',
    },
    knob: 'rug-pull',
    fix: 'Keep tool definitions stable; announce real changes with list_changed.',
  },
  (v) => {
    const canon = (p: string) =>
      v
        .list(p, 'tools')
        .map((t) => JSON.stringify([t.name, t.description ?? null, t.inputSchema ?? null]))
        .sort()
        .join('\n');
    if (!v.result('tools-list-2'))
      return { status: 'not_evaluable', reason: 'no_population', detail: 'the second tools/list was not served' };
    return canon('tools-list') === canon('tools-list-2')
      ? pass('identical definitions')
      : fail('tool names, descriptions or schemas changed between two consecutive tools/list calls');
  },
);
