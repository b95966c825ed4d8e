import { BOTH_ERAS, STDIO_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_REQUEST, PARSE_ERROR } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'stdio-notification-silent',
    title: 'Notifications get no response',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: STDIO_ONLY,
    probes: ['notification'],
    spec: {
      url: specUrl(LEGACY, 'basic#notifications'),
      requirement: 'Server MUST NOT write any response to a notification it receives on stdin.',
    },
    knob: 'answer-notifications',
    fix: 'Never answer a message without an id.',
  },
  (v) => {
    // an answer to a notification can only carry a null (or no) id: there was no id to echo;
    // id-less parse/invalid-request errors answer unreadable input, not a notification
    const stray = v.ev.unattributed.filter((m) => {
      if (!m || typeof m !== 'object' || ((m as { id?: unknown }).id ?? null) !== null) return false;
      const code = (m as { error?: { code?: unknown } }).error?.code;
      return 'result' in m || ('error' in m && code !== PARSE_ERROR && code !== INVALID_REQUEST);
    });
    return stray.length
      ? fail(`${stray.length} response(s) answered no request we sent, e.g. ${JSON.stringify(stray[0]).slice(0, 120)}`)
      : pass('no response to notifications');
  },
);
