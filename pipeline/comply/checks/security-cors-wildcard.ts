import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
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
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#security--endpoint'),
      requirement:
        "Best practice: server does not allow every origin by CORS (Access-Control-Allow-Origin: *), which would let any web page drive it; the spec's MUST is to check Origin.",
    },
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
