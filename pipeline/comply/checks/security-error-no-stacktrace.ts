import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { STACK, errorTexts } from '../judge/leaks.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-error-no-stacktrace',
    title: 'Error responses carry no stack traces or source paths',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-method', 'tools-call-unknown', 'parse-error'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        'Best practice (the spec says nothing on error text): server keeps stack traces and source paths out of error responses and logs them on its side instead.',
    },
    knob: 'stacktrace-errors',
    fix: 'Log stack traces to stderr; send clients a short message.',
  },
  (v) => {
    const texts = errorTexts(v);
    const hit = texts.find((t) => STACK.test(t.text));
    if (hit) return fail(`${hit.where}: error text contains a stack trace or source path`);
    return texts.length
      ? pass(`${texts.length} error responses clean`)
      : { status: 'not_evaluable', reason: 'no_population', detail: 'no error responses to inspect' };
  },
);
