import { ANY_WIRE, MODERN_ONLY, defineCheck, problems, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-no-server-requests',
    title: 'The server sends no JSON-RPC requests of its own',
    category: 'transport',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: [],
    spec: {
      url: specUrl(MODERN, 'basic/transports/stdio'),
      requirement:
        'Server MUST NOT send JSON-RPC requests of its own; what it needs from the client goes in an input_required result instead.',
    },
    knob: 'server-request',
    fix: 'Ask the client for input with an input_required result instead of a server-to-client request.',
  },
  (v) => {
    const seen = v.messages().filter(({ msg }) => typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null);
    return problems(
      seen.map(({ probe, msg }) => `${probe}: request ${JSON.stringify(msg.method)} id ${JSON.stringify(msg.id)}`),
      `${v.messages().length} server message(s), none a request`,
    );
  },
);
