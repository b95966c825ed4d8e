import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { PROGRESS_TOKEN } from '../gather/probes/lifecycle.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-progress-token',
    title: 'A progress token is honoured: notifications carry it with increasing progress, and it breaks nothing',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['progress', 'tools-call'],
    spec: {
      url: specUrl(LEGACY, 'basic/utilities/progress#progress-flow'),
      requirement:
        'Server MUST send progress notifications only for a token a request still in flight gave it, with a progress value that grows every time (known total or not).',
    },
    knob: 'progress-wrong-token',
    fix: "Copy the request's _meta.progressToken into every notifications/progress for it, with a strictly increasing progress value (sending none is fine).",
  },
  (v) => {
    if (!v.x('progress')) return { status: 'not_evaluable', reason: 'no_population', detail: 'no tool can be called harmlessly' };
    const gate = v.unusable('progress');
    if (gate) return gate;
    // the twin: the same call without the token
    if (v.result('tools-call') && !v.result('progress')) {
      const err = v.error('progress');
      const e = v.x('progress')!;
      // an answer that came back without a readable response (e.g. a mislabelled stream) is not the token's doing
      if (!err && !e.error)
        return {
          status: 'not_evaluable',
          reason: 'no_population',
          detail: `the answer to the call with a token holds no readable response (HTTP ${e.response?.status}, ${e.response?.headers?.['content-type'] ?? 'no content type'})`,
        };
      return fail(
        `the call fails only when it carries a progress token (${err ? `error ${err.code} ${JSON.stringify(err.message).slice(0, 80)}` : (e.error?.detail ?? 'no result')})`,
      );
    }
    const notes = v
      .messages()
      .filter(({ msg }) => msg.method === 'notifications/progress')
      .map(({ msg }) => (isObj(msg.params) ? msg.params : {}));
    const foreign = notes.filter((p) => p.progressToken !== PROGRESS_TOKEN);
    if (foreign.length)
      return fail(
        `notifications/progress for token(s) never sent: ${[...new Set(foreign.map((p) => JSON.stringify(p.progressToken)))].slice(0, 3).join(', ')}`,
      );
    let last = -Infinity;
    for (const p of notes) {
      if (typeof p.progress !== 'number') return fail(`progress is ${JSON.stringify(p.progress)}, not a number`);
      if (p.progress <= last) return fail(`progress went from ${last} to ${p.progress} (it MUST increase)`);
      last = p.progress;
    }
    return pass(
      notes.length
        ? `${notes.length} progress notification(s), increasing, all for our token`
        : 'no progress notifications (optional); the call with a token was served',
    );
  },
);
