import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-title-field',
    title: 'A tool title, when present, is a string',
    category: 'schema',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#tool'),
      requirement:
        "Server either leaves a tool's title (its display name) out or sends it as a string (no normative keyword; the type is the schema's).",
    },
    knob: 'tool-title-number',
    fix: 'Send title as a string (or leave it out: clients then show annotations.title or the name).',
  },
  (v) => {
    const tools = v.list('tools-list', 'tools').filter(isObj);
    const titled = tools.filter((t) => 'title' in t && t.title !== undefined);
    const bad = titled.filter((t) => typeof t.title !== 'string').map((t) => `${String(t.name)}: title is ${JSON.stringify(t.title)}`);
    return problems(bad, `${titled.length} of ${tools.length} tools have a string title`);
  },
);
