import { ANY_WIRE, LEGACY_ONLY, defineCheck, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-subscribe',
    title: 'resources/subscribe and resources/unsubscribe are served when resources.subscribe is declared',
    category: 'resources',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['subscribe', 'unsubscribe'],
    spec: {
      url: specUrl(LEGACY, 'server/resources#subscriptions'),
      requirement:
        'Server that declares resources.subscribe serves resources/subscribe and resources/unsubscribe for a uri with an empty result (no normative keyword: the declared capability is the promise).',
    },
    knob: 'subscribe-error',
    fix: 'Serve resources/subscribe and resources/unsubscribe {uri} with {} for a listed resource, or stop declaring resources.subscribe.',
  },
  (v) => {
    const res = v.caps().resources;
    if (!isObj(res) || res.subscribe !== true)
      return { status: 'not_applicable', reason: 'capability_undeclared', detail: 'resources.subscribe is not declared' };
    if (!v.x('subscribe')) return { status: 'not_evaluable', reason: 'no_population', detail: 'no listed resource to subscribe to' };
    const s = v.served('subscribe', 'resources/subscribe');
    if (!('ok' in s)) return s;
    const u = v.served('unsubscribe', 'resources/unsubscribe');
    if (!('ok' in u)) return u;
    return pass('subscribe and unsubscribe served');
  },
);
