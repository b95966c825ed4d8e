import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-input-schema',
    title: 'Every tool has an inputSchema object with type "object"',
    category: 'schema',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#tool'),
      requirement:
        'Server MUST describe every tool\'s arguments with an inputSchema that is a JSON Schema object (never null) of type "object".',
    },
    knob: 'tool-no-input-schema',
    fix: 'Give every tool an inputSchema like {"type":"object","properties":{…}}.',
  },
  (v) => {
    const tools = v.list('tools-list', 'tools');
    const bad = tools
      .filter((t) => !isObj(t.inputSchema) || t.inputSchema.type !== 'object')
      .map((t) => `${String(t.name)}: inputSchema ${JSON.stringify(t.inputSchema)?.slice(0, 60)}`);
    return problems(bad, `${tools.length} tools have object input schemas`);
  },
);
