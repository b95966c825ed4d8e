import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'prompts-unknown',
    title: 'prompts/get of an unknown prompt is a -32602 error',
    category: 'prompts',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'prompts',
    prerequisites: ['lifecycle-handshake', 'prompts-list'],
    probes: ['prompts-get-unknown', 'prompts-list'],
    spec: {
      url: specUrl(LEGACY, 'server/prompts#error-handling'),
      requirement: 'Server SHOULD answer prompts/get for a prompt it does not have with error -32602 (Invalid params).',
    },
    knob: 'unknown-prompt-ok',
    fix: 'Answer prompts/get of an unknown name with -32602.',
  },
  (v) => v.rejected('prompts-get-unknown', 'unknown prompt', { twin: 'prompts-list', codes: [INVALID_PARAMS] }),
);
