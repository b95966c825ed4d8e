import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { UNKNOWN_NOTIFICATION } from '../gather/probes/lifecycle.ts';
import { LEGACY } from '../types.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-unknown-notification',
    title: 'A notification of an unknown method gets no response (and the server keeps serving)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-notification'],
    spec: {
      url: specUrl(LEGACY, 'basic#notifications'),
      requirement: 'Server MUST NOT answer a notification, even one whose method it does not know, and keeps serving afterwards.',
    },
    knob: 'unknown-notification-answered',
    fix: 'Drop notifications whose method you do not handle: no "Method not found" error for them (HTTP: 202 Accepted, no body).',
  },
  (v) => {
    const gate = v.unusable('unknown-notification');
    if (gate) return gate;
    if (v.http) {
      const st = v.status('unknown-notification');
      if (st === 202) return pass('HTTP 202, no body');
      if (st !== undefined && st >= 400 && st < 500)
        return pass(`refused with HTTP ${st}`, [
          `HTTP ${st}: the transport lets a server refuse a notification, but an unknown one is better ignored (202)`,
        ]);
      return fail(
        `HTTP ${st} for ${UNKNOWN_NOTIFICATION} (202 Accepted expected)${v.x('unknown-notification')!.response?.body ? ' with a body' : ''}`,
      );
    }
    // stdio: an answer to a notification has no id to carry; -32601 (or our method named) is the router bug
    const stray = v.ev.unattributed.find((m) => {
      if (!m || typeof m !== 'object' || !('error' in m) || ((m as { id?: unknown }).id ?? null) !== null) return false;
      return (m as { error?: { code?: unknown } }).error?.code === METHOD_NOT_FOUND || JSON.stringify(m).includes(UNKNOWN_NOTIFICATION);
    });
    if (stray) return fail(`${UNKNOWN_NOTIFICATION} was answered: ${JSON.stringify(stray).slice(0, 120)}`);
    const exit = v.ev.exit;
    if (exit?.afterProbe === 'unknown-notification') return fail(`the server exited (code ${exit.code}) right after the notification`);
    return pass('no response, still serving');
  },
);
