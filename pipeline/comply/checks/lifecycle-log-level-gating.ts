import { ANY_WIRE, MODERN_ONLY, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { K_LOG_LEVEL } from '../gather/probes/lifecycle.ts';
import { MODERN } from '../types.ts';

const askedForLogs = (body: string): boolean => {
  try {
    const m = JSON.parse(body) as { params?: { _meta?: Record<string, unknown> } };
    return isObj(m.params?._meta) && K_LOG_LEVEL in m.params._meta;
  } catch {
    return false;
  }
};

export default defineCheck(
  {
    id: 'lifecycle-log-level-gating',
    title: 'Log messages come only for requests whose _meta set a logLevel',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'logging',
    probes: ['log-call', 'tools-call'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/logging#per-request-log-level'),
      requirement: 'Server MUST NOT send log messages for a request unless that request asked for them with a logLevel in its _meta.',
    },
    knob: 'log-without-level',
    fix: 'Emit log notifications only on the response stream of a request that set _meta["io.modelcontextprotocol/logLevel"], at or above that level.',
  },
  (v) => {
    const logs = v.messages().filter(({ msg }) => msg.method === 'notifications/message');
    if (v.http) {
      // HTTP: each message arrived on the response stream of one request
      const stray = logs.filter(({ probe }) => !askedForLogs(v.x(probe)?.request.body ?? ''));
      if (stray.length) return fail(`${stray.length} log message(s) on responses to requests without a logLevel (e.g. ${stray[0].probe})`);
      return pass(`${logs.length} log message(s), all on requests that set a logLevel`);
    }
    // stdio: messages share one channel; they are only attributable when no request asked for logs
    const asked = v.ev.exchanges.some((e) => askedForLogs(e.request.body));
    if (logs.length && !asked) return fail(`${logs.length} log message(s) although no request set a logLevel`);
    return pass(`${logs.length} log message(s)${asked ? ' (stdio: one shared channel, a request had set a logLevel)' : ''}`);
  },
);
