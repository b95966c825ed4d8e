import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, pass, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

export default defineCheck(
  {
    id: 'lifecycle-log-message-shape',
    title: 'Log messages carry an RFC 5424 level and data',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'logging',
    probes: ['progress', 'log-call', 'set-level'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/logging#log-message-notifications'),
      requirement:
        'Server sends each log message with a level from the eight syslog names (debug … emergency) and a data field, both required; logger, if present, is a string.',
    },
    knob: 'log-bad-level',
    fix: 'Send notifications/message with one of the eight RFC 5424 level names, a data field, and logger as a string if given.',
  },
  (v) => {
    const msgs = v.messages().filter(({ msg }) => msg.method === 'notifications/message');
    if (!msgs.length) return pass('no log messages seen (nothing to check)');
    const bad: string[] = [];
    for (const { msg } of msgs) {
      const p = isObj(msg.params) ? msg.params : {};
      if (!LEVELS.has(p.level as string)) bad.push(`level ${JSON.stringify(p.level)}`);
      if (!('data' in p)) bad.push('no data');
      if (p.logger !== undefined && typeof p.logger !== 'string') bad.push(`logger ${JSON.stringify(p.logger)}`);
    }
    return problems(bad, `${msgs.length} log message(s) well-formed`);
  },
);
