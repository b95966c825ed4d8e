import { MODERN_ONLY, STDIO_ONLY, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

import { META_SUBSCRIPTION_ID as K_SUB } from '../../mcp/protocol.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';
const ACK = 'notifications/subscriptions/acknowledged';
type Obj = Record<string, unknown>;

const subIdOf = (m: Obj): unknown => (isObj(m.params) && isObj(m.params._meta) ? m.params._meta[K_SUB] : undefined);

export default defineCheck(
  {
    id: 'lifecycle-subscriptions-listen',
    title: 'subscriptions/listen is acknowledged first, with its subscription id and only requested types',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: STDIO_ONLY,
    probes: ['listen'],
    spec: {
      url: specUrl(MODERN, 'basic/patterns/subscriptions#acknowledgment'),
      requirement:
        "Server MUST open a subscriptions/listen stream with an acknowledgement naming which requested notifications it will send and tagged with the listen request's id as subscriptionId, and MUST NOT send kinds nobody asked for.",
    },
    knob: 'listen-ack-wrong-id',
    fix: 'Answer subscriptions/listen with an acknowledgement first: {notifications: <the requested types you honour>, _meta: {"io.modelcontextprotocol/subscriptionId": <the listen request id>}}; or -32601 when you offer no subscriptions.',
  },
  (v) => {
    const ex = v.x('listen');
    if (!ex) return { status: 'not_evaluable', reason: 'no_population', detail: 'probe listen was not sent' };
    const id = ex.request.id;
    let asked: Obj = {};
    try {
      asked = (JSON.parse(ex.request.body) as { params: { notifications: Obj } }).params.notifications;
    } catch {
      /* our own request: always JSON */
    }
    const caps = v.caps();
    const offers =
      ['tools', 'prompts', 'resources'].some((k) => isObj(caps[k]) && (caps[k] as Obj).listChanged === true) ||
      (isObj(caps.resources) && caps.resources.subscribe === true);
    // stdio: the stream's frames share the channel; ours carry our id (response) or our subscription id (notifications)
    const mine = v.ev.unattributed.filter((m): m is Obj => isObj(m) && (m.id === id || subIdOf(m) === id));
    const first = mine[0];
    if (!first) {
      const other = v.ev.unattributed.find((m) => isObj(m) && m.method === ACK);
      return fail(
        other
          ? `an acknowledgement came for subscription ${JSON.stringify(subIdOf(other as Obj))}, not for the listen request id ${JSON.stringify(id)}`
          : 'no acknowledgement (and no error) for subscriptions/listen',
      );
    }
    if ('error' in first) {
      const code = isObj(first.error) ? first.error.code : undefined;
      if (code === METHOD_NOT_FOUND && !offers) return pass('no subscriptions offered: listen refused with -32601');
      return fail(`listen answered with error ${JSON.stringify(code)}${offers ? ' although listChanged/subscribe is declared' : ''}`);
    }
    if (first.method !== ACK)
      return fail(`the first frame of the listen stream is ${JSON.stringify(first.method ?? 'a response')}, not ${ACK}`);
    const got = isObj(first.params) ? first.params.notifications : undefined;
    if (!isObj(got)) return fail(`the acknowledgement's notifications is ${JSON.stringify(got)}, not an object`);
    const extra = Object.keys(got).filter((k) => got[k] !== false && (asked[k] === undefined || asked[k] === false));
    if (extra.length) return fail(`the acknowledgement honours types that were not requested: ${extra.join(', ')}`);
    return pass(`acknowledged first, subscription ${JSON.stringify(id)}, honoured ${JSON.stringify(got)}`);
  },
);
