import { ANY_WIRE, BOTH_ERAS, defineCheck, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export default defineCheck(
  {
    id: 'tools-name-format',
    title: 'Tool names are 1-128 characters of [A-Za-z0-9_.-] and unique',
    category: 'schema',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#tool-names'),
      requirement:
        'Server SHOULD name tools with 1 to 128 characters from letters, digits, _, - and ., and SHOULD not give two tools the same name.',
    },
    knob: 'bad-tool-name',
    fix: 'Rename tools to [A-Za-z0-9_.-]{1,128}, unique per server.',
  },
  (v) => {
    const tools = v.list('tools-list', 'tools');
    const seen = new Set<string>();
    const bad: string[] = [];
    for (const t of tools) {
      const n = t.name;
      if (typeof n !== 'string' || !NAME.test(n)) bad.push(`name ${JSON.stringify(n)}`);
      else if (seen.has(n)) bad.push(`duplicate name ${n}`);
      else seen.add(n);
    }
    return problems(bad, `${tools.length} tool names well-formed`);
  },
);
