import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'security-cors-wildcard',
    title: 'CORS does not allow every origin (no Access-Control-Allow-Origin: *)',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['cors-preflight'],
    spec: { url: specUrl(MODERN, 'basic/transports/streamable-http#security--endpoint'), requirement: 'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks (a wildcard CORS policy lets any web page drive the server).' },
    knob: 'cors-wildcard',
    fix: 'Allow only known origins in Access-Control-Allow-Origin.',
  },
  (v) => {
    const gate = v.unusable('cors-preflight');
    if (gate) return gate;
    const acao = v.header('cors-preflight', 'access-control-allow-origin');
    if (acao === '*') return fail('Access-Control-Allow-Origin: * for https://app.example.com');
    if (acao === 'https://app.example.com') return fail('an arbitrary origin is reflected in Access-Control-Allow-Origin');
    return pass(acao ? `allows ${acao}` : 'no CORS grant for a foreign origin');
  },
);
