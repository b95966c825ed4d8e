import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-completion-unknown',
    title: 'completion/complete for a prompt that does not exist is refused with -32602',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'completions',
    probes: ['completion-unknown', 'completion'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/completion#error-handling'),
      requirement: 'Server SHOULD answer a completion request that names a prompt it does not have with error -32602 (Invalid params).',
    },
    knob: 'completion-unknown-ok',
    fix: 'Answer completion/complete for an unknown prompt or resource reference with -32602.',
  },
  (v) => {
    if (!v.x('completion'))
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'no conformant completion request to compare with (nothing to complete)',
      };
    return v.rejected('completion-unknown', 'completion for an unknown prompt', { twin: 'completion', codes: [INVALID_PARAMS] });
  },
);
