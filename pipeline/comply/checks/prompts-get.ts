import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'prompts-get',
    title: 'prompts/get returns messages with role user|assistant and a content block',
    category: 'prompts',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'prompts',
    prerequisites: ['lifecycle-handshake', 'prompts-list'],
    probes: ['prompts-get'],
    spec: {
      url: specUrl(LEGACY, 'server/prompts#getting-a-prompt'),
      requirement:
        'Server answers prompts/get with a messages list (required); each message needs a role, "user" or "assistant", and one content block.',
    },
    knob: 'prompt-bad-role',
    fix: 'Return messages [{role: "user"|"assistant", content: {type, …}}].',
  },
  (v) => {
    if (!v.x('prompts-get')) return { status: 'not_evaluable', reason: 'no_population', detail: 'prompts/list listed nothing to get' };
    const gate = v.unusable('prompts-get');
    if (gate) return gate;
    if (v.error('prompts-get')?.code === INVALID_PARAMS)
      return pass('the prompt refused the guessed arguments (-32602)', ['arguments guessed']);
    const r = v.served('prompts-get', 'prompts/get');
    if (!('ok' in r)) return r;
    if (r.ok.resultType === 'input_required') return pass('input_required result');
    const m = r.ok.messages;
    if (!Array.isArray(m)) return fail('no messages array');
    const bad = m.filter(
      (x) => !isObj(x) || (x.role !== 'user' && x.role !== 'assistant') || !isObj(x.content) || typeof x.content.type !== 'string',
    );
    return bad.length
      ? fail(`${bad.length} message(s) with a bad role or content, e.g. ${JSON.stringify(bad[0]).slice(0, 100)}`)
      : pass(`${m.length} messages`);
  },
);
