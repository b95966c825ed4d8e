import { ANY_WIRE, MODERN_ONLY, defineCheck, isObj, pass, problems, specUrl } from '../check.ts';
import { K_SERVER_INFO } from '../envelope.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-server-info-meta',
    title: 'Every result carries io.modelcontextprotocol/serverInfo in _meta',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: { url: specUrl(MODERN, 'basic/index#meta'), sentence: 'Servers SHOULD include io.modelcontextprotocol/serverInfo in the _meta of every result.' },
    knob: 'no-server-info',
    fix: 'Add _meta["io.modelcontextprotocol/serverInfo"] = {name, version} to every result.',
  },
  (v) => {
    const bad: string[] = [];
    let n = 0;
    for (const { ex, msg } of v.responses()) {
      if (!isObj(msg.result)) continue;
      n++;
      const si = isObj(msg.result._meta) ? msg.result._meta[K_SERVER_INFO] : undefined;
      if (!isObj(si) || typeof si.name !== 'string') bad.push(`${v.requestMethod(ex) ?? ex.probe} result lacks serverInfo`);
    }
    return n ? problems(bad, `${n} results carry serverInfo`) : pass('no results to inspect');
  },
);
