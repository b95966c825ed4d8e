import { ANY_WIRE, MODERN_ONLY, defineCheck, isObj, pass, problems, specUrl } from '../judge/check.ts';
import { K_SERVER_INFO } from '../gather/request-builder.ts';
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
    spec: {
      url: specUrl(MODERN, 'basic/index#meta'),
      requirement: 'Server SHOULD name itself (serverInfo) in the _meta of each result it sends.',
    },
    knob: 'no-server-info',
    fix: 'Add _meta["io.modelcontextprotocol/serverInfo"] = {name, version} to every result.',
  },
  (v) => {
    const all = v.results();
    const lacks = ({ result }: (typeof all)[number]) => {
      const si = isObj(result._meta) ? result._meta[K_SERVER_INFO] : undefined;
      return !isObj(si) || typeof si.name !== 'string';
    };
    const bad = all.filter(lacks).map(({ ex, method }) => `${method ?? ex.probe} result lacks serverInfo`);
    return all.length ? problems(bad, `${all.length} results carry serverInfo`) : pass('no results to inspect');
  },
);
