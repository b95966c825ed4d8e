import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'resources-templates',
    title: 'resources/templates/list returns resourceTemplates with uriTemplate and name (or -32601)',
    category: 'resources',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['templates-list'],
    spec: {
      url: specUrl(LEGACY, 'server/resources#resource-templates'),
      requirement:
        'Server lists resource templates each with a uriTemplate (RFC 6570 syntax) and a name, both required, or answers -32601 when it has no templates.',
    },
    knob: 'template-no-uri-template',
    fix: 'Give each template a uriTemplate and a name.',
  },
  (v) => {
    const gate = v.unusable('templates-list');
    if (gate) return gate;
    if (v.error('templates-list')?.code === METHOD_NOT_FOUND) return pass('templates not implemented (-32601)');
    const r = v.served('templates-list', 'resources/templates/list');
    if (!('ok' in r)) return r;
    const l = r.ok.resourceTemplates;
    if (!Array.isArray(l)) return fail('no resourceTemplates array');
    const bad = l.filter((t) => !isObj(t) || typeof t.uriTemplate !== 'string' || typeof t.name !== 'string');
    return bad.length ? fail(`${bad.length} template(s) lack uriTemplate or name`) : pass(`${l.length} templates`);
  },
);
