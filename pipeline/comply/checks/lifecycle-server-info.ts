import { ANY_WIRE, LEGACY_ONLY, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-server-info',
    title: 'InitializeResult carries serverInfo with name and version',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#initialization'),
      requirement: 'Server answers initialize with serverInfo (a required field) giving its name and version (both required).',
    },
    knob: 'no-server-info',
    fix: 'Return serverInfo {name, version} in the initialize result.',
  },
  (v) => {
    const si = v.result('handshake')?.serverInfo;
    if (!isObj(si)) return fail('serverInfo is missing');
    if (typeof si.name !== 'string' || typeof si.version !== 'string')
      return fail(`serverInfo lacks string name/version: ${JSON.stringify(si).slice(0, 120)}`);
    return pass(`${si.name} ${si.version}`);
  },
);
