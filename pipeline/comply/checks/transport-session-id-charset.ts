import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, na, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

export default defineCheck(
  {
    id: 'transport-session-id-charset',
    title: 'An issued Mcp-Session-Id holds visible ASCII only',
    category: 'transport',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#session-management'),
      requirement: 'Server MUST build session ids from visible ASCII only (0x21 to 0x7E: no spaces, no control or non-ASCII characters).',
    },
    knob: 'session-id-space',
    fix: 'Mint session ids from visible ASCII (e.g. a UUID or base64url of random bytes): no spaces, no control or non-ASCII characters.',
  },
  (v) => {
    const sid = v.ev.sessionId;
    if (!sid) return na('the server issued no session id (a stateless server: legal)');
    const bad = [...sid].find((ch) => !VISIBLE_ASCII.test(ch));
    return bad === undefined
      ? pass(`${sid.length} visible ASCII characters`)
      : fail(`the session id holds ${JSON.stringify(bad)} (U+${bad.codePointAt(0)!.toString(16).padStart(4, '0')})`);
  },
);
