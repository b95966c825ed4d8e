import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_REQUEST } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'transport-batch-reject',
    title: 'A JSON-RPC batch (array) is rejected, not processed',
    category: 'transport',
    severity: 'MUST',
    basis: 'inferred',
    clientOnlyOn: ['stdio'],
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['batch', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#stdio'),
      requirement:
        'Summary: since 2025-06-18 batching is gone: the POST body (HTTP) and each line (stdio) MUST be a single JSON-RPC message. That MUST is on the client; a server that processes an array anyway is inferred to be out of spec (weighed as SHOULD on HTTP; on stdio the client must not send one, so not graded).',
    },
    knob: 'batch-ok',
    fix: 'Reject a JSON array body with an error (-32600 / HTTP 400) instead of processing its elements.',
  },
  (v) => {
    const gate = v.unusable('batch', [INVALID_REQUEST]);
    if (gate) return gate;
    if (!v.twinServed('twin'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the single conformant request was not served either' };
    const e = v.x('batch')!;
    const msgs = e.response?.messages ?? [];
    if (msgs.some((m) => Array.isArray(m) && m.some((x) => x && typeof x === 'object' && 'result' in x)))
      return fail('the batch was processed: an array of results came back');
    const results = msgs.filter((m) => m && typeof m === 'object' && !Array.isArray(m) && 'result' in m);
    if (results.length) return fail('the batch elements were answered with results');
    const err = msgs.find((m) => m && typeof m === 'object' && 'error' in (m as object)) as { error?: { code?: number } } | undefined;
    if (err) return pass(`rejected with ${err.error?.code}`);
    const st = e.response?.status;
    if (v.http && st !== undefined && st >= 400 && st < 500) return pass(`HTTP ${st}`);
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    return fail('no error came back for the batch');
  },
);
