import { ANY_WIRE, BOTH_ERAS, defineCheck, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

/** capabilities the schema defines for clients only */
const CLIENT_ONLY = ['sampling', 'roots', 'elicitation'] as const;

export default defineCheck(
  {
    id: 'lifecycle-client-only-caps',
    title: 'The server does not claim client-only capabilities (sampling, roots, elicitation)',
    category: 'lifecycle',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#capability-negotiation'),
      requirement:
        'Best practice: server declares only server-side capabilities (prompts, resources, tools, logging, completions, experimental), never the client ones (roots, sampling, elicitation).',
    },
    knob: 'server-declares-sampling',
    fix: 'Remove sampling/roots/elicitation from the server capabilities: they describe what a client offers, and a server uses them by request, not by declaring them.',
  },
  (v) => {
    const caps = v.caps();
    return problems(
      CLIENT_ONLY.filter((k) => k in caps).map((k) => `the server declares the client capability ${k}`),
      'no client-only capability declared',
    );
  },
);
