import { ANY_WIRE, MODERN_ONLY, defineCheck, isObj, pass, problems, specUrl } from '../judge/check.ts';
import { K_CAPS } from '../gather/request-builder.ts';
import { MODERN } from '../types.ts';

/** input request method -> the client capability it needs */
const NEEDS: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

function declaredCaps(body: string): Record<string, unknown> {
  try {
    const caps = (JSON.parse(body) as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[K_CAPS];
    return isObj(caps) ? caps : {};
  } catch {
    return {};
  }
}

export default defineCheck(
  {
    id: 'schema-input-required-shape',
    title: 'An input_required result carries inputRequests and/or requestState, asking only through declared client capabilities',
    category: 'schema',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['prompts-get-last', 'prompts-get', 'tools-call', 'resources-read'],
    spec: {
      url: specUrl(MODERN, 'basic/patterns/mrtr#server-requirements-basic-workflow'),
      requirement:
        "Server's input_required result MUST carry inputRequests, requestState or both; each input request is a {method, params} for elicitation, sampling or roots, and the server MUST NOT ask for a capability the client did not declare on that request.",
    },
    knob: 'input-required-undeclared',
    fix: 'Return input_required with requestState and/or inputRequests {key: {method, params}}; ask only through capabilities the request declared (else answer -32021 or a requestState-only round).',
  },
  (v) => {
    const bad: string[] = [];
    let n = 0;
    for (const { ex, msg } of v.responses()) {
      const r = msg.result;
      if (!isObj(r) || r.resultType !== 'input_required') continue;
      n++;
      const where = v.requestMethod(ex) ?? ex.probe;
      const reqs = r.inputRequests;
      if (reqs === undefined && r.requestState === undefined) bad.push(`${where}: neither inputRequests nor requestState`);
      if (r.requestState !== undefined && typeof r.requestState !== 'string')
        bad.push(`${where}: requestState is ${JSON.stringify(r.requestState).slice(0, 40)}, not a string`);
      if (reqs === undefined) continue;
      if (!isObj(reqs)) {
        bad.push(`${where}: inputRequests is not an object`);
        continue;
      }
      const caps = declaredCaps(ex.request.body);
      for (const [key, q] of Object.entries(reqs)) {
        if (!isObj(q) || typeof q.method !== 'string' || !(q.method in NEEDS)) {
          bad.push(`${where}: input request ${key} has method ${JSON.stringify(isObj(q) ? q.method : q)}`);
          continue;
        }
        if ('jsonrpc' in q || 'id' in q) bad.push(`${where}: input request ${key} carries jsonrpc/id`);
        if (q.method !== 'roots/list' && !isObj(q.params)) bad.push(`${where}: input request ${key} has no params object`);
        if (!(NEEDS[q.method] in caps))
          bad.push(`${where}: input request ${key} asks through ${NEEDS[q.method]}, which the request did not declare`);
      }
    }
    return n ? problems(bad, `${n} input_required result(s) well-formed`) : pass('no input_required result seen (nothing to check)');
  },
);
