import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { INTERNAL_IP, errorTexts } from '../judge/leaks.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-error-no-internal-ip',
    title: 'Error responses reveal no private network addresses',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-method', 'tools-call-unknown', 'parse-error'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        'Best practice (the spec says nothing on error text): server keeps private and link-local addresses out of error messages, which every client can read.',
    },
    knob: 'internal-ip-errors',
    fix: 'Strip internal addresses from client-facing errors.',
  },
  (v) => {
    const texts = errorTexts(v);
    const hit = texts.find((t) => INTERNAL_IP.test(t.text));
    if (hit) return fail(`${hit.where}: error text names ${INTERNAL_IP.exec(hit.text)![0]}`);
    return texts.length
      ? pass(`${texts.length} error responses clean`)
      : { status: 'not_evaluable', reason: 'no_population', detail: 'no error responses to inspect' };
  },
);
