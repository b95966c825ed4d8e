import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'tools-call',
    title: 'tools/call of a listed tool returns a CallToolResult with a content array',
    category: 'tools',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-call'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#calling-tools'),
      requirement:
        'Server answers tools/call of a listed tool with a result whose content array is required; isError and structuredContent may be added.',
    },
    knob: 'call-no-content',
    fix: 'Return {"content": [...]} from tools/call (errors in execution: isError true with content).',
  },
  (v) => {
    if (!v.x('tools-call'))
      return { status: 'not_evaluable', reason: 'no_population', detail: 'no tool could be called without inventing arguments' };
    const gate = v.unusable('tools-call');
    if (gate) return gate;
    const err = v.error('tools-call');
    if (err?.code === INVALID_PARAMS)
      return pass(`the tool refused the probe's arguments (-32602)`, ['arguments guessed from the schema were refused']);
    const r = v.served('tools-call', 'tools/call');
    if (!('ok' in r)) return r;
    if (r.ok.resultType === 'input_required') return pass('input_required (multi round-trip) result');
    return Array.isArray(r.ok.content)
      ? pass(`${r.ok.content.length} content blocks${r.ok.isError ? ' (isError)' : ''}`)
      : fail('result has no content array');
  },
);
