import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-output-schema',
    title: 'A declared outputSchema is a JSON Schema object (root type "object" in 2025-11-25)',
    category: 'schema',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#output-schema'),
      requirement:
        'Server that declares a tool\'s outputSchema makes it a JSON Schema object: of type "object" in 2025-11-25, any 2020-12 schema from 2026-07-28 (no normative keyword; inferred from the schema).',
    },
    knob: 'output-schema-string',
    fix: 'Declare outputSchema as a JSON Schema object (2025-11-25: with "type": "object" at the root), or leave it out.',
  },
  (v) => {
    const tools = v.list('tools-list', 'tools').filter(isObj);
    const withSchema = tools.filter((t) => 'outputSchema' in t && t.outputSchema !== undefined);
    const bad: string[] = [];
    for (const t of withSchema) {
      const s = t.outputSchema;
      // a boolean schema is a JSON Schema 2020-12 document too, but the MCP schema types outputSchema as an object
      if (!isObj(s)) bad.push(`${String(t.name)}: outputSchema is ${JSON.stringify(s)?.slice(0, 40)}, not an object`);
      else if (!v.modern && s.type !== 'object')
        bad.push(`${String(t.name)}: outputSchema root type is ${JSON.stringify(s.type)}, 2025-11-25 requires "object"`);
    }
    return problems(bad, `${withSchema.length} of ${tools.length} tools declare a well-formed outputSchema`);
  },
);
