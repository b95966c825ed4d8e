import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'security-extra-params',
    title: 'Undeclared arguments (including __proto__) are refused with -32602 or ignored, never a crash',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['extra-params', 'inject-twin', 'inject-alive'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        "Best practice: server either refuses (-32602) or ignores a tool argument its schema does not declare, __proto__ included; the spec's MUST is that tool input is validated.",
    },
    knob: 'extra-params-crash',
    fix: 'Validate arguments against inputSchema (strip or refuse unknown keys) and never merge them into plain objects by key.',
  },
  (v) => {
    const e = v.x('extra-params');
    if (!e)
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'not sent (no read-only tool with a free-form string argument, or --no-invasive)',
      };
    if (!v.twinServed('inject-twin'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the same call without the extra arguments was not served either' };
    const st = e.response?.status;
    if (st === 401 || st === 429)
      return { status: 'not_evaluable', reason: st === 401 ? 'auth_gate' : 'rate_limited', detail: `HTTP ${st}` };
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    if ((e.error?.kind === 'timeout' || e.error?.kind === 'unframed') && !e.response) return fail(`no answer (${e.error.detail})`);
    if (v.x('inject-alive') && !v.reply('inject-alive'))
      return fail('the server stopped answering after the call with undeclared arguments');
    const err = v.error('extra-params');
    if (err && err.code !== INVALID_PARAMS)
      return fail(
        `error ${err.code} ${JSON.stringify(err.message).slice(0, 100)}${st !== undefined && v.http ? ` (HTTP ${st})` : ''}: expected -32602 or the arguments ignored`,
      );
    if (st !== undefined && st >= 500) return fail(`HTTP ${st}`);
    if (err) return pass('refused with -32602');
    return v.result('extra-params')
      ? pass('served; the undeclared arguments were ignored')
      : fail(`no JSON-RPC answer (HTTP ${st ?? '-'})`);
  },
);
