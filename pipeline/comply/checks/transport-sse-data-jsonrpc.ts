import { BOTH_ERAS, defineCheck, isObj, na, problems, specUrl } from '../judge/check.ts';
import type { Exchange } from '../types.ts';
import { LEGACY } from '../types.ts';

/** the messages an exchange received over an SSE stream (the legacy HTTP+SSE wire: all of them) */
function streamed(ex: Exchange): unknown[] {
  if (ex.wire === 'sse') return ex.response?.messages ?? [];
  return (ex.response?.headers?.['content-type'] ?? '').toLowerCase().includes('text/event-stream') ? (ex.response?.messages ?? []) : [];
}

export default defineCheck(
  {
    id: 'transport-sse-data-jsonrpc',
    title: 'Every SSE data event carries one JSON-RPC message',
    category: 'transport',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ['http', 'sse'],
    prerequisites: ['lifecycle-handshake'],
    probes: [],
    spec: {
      url: specUrl(LEGACY, 'basic/transports'),
      requirement:
        'Best practice: server puts exactly one JSON-RPC message in each SSE data event; keepalives go in comment lines, not data events (an empty priming event is fine).',
    },
    knob: 'sse-non-jsonrpc-data',
    fix: 'Put exactly one JSON-RPC message in each SSE data event; send keepalives as comment lines (": keepalive").',
  },
  (v) => {
    let n = 0;
    const bad: string[] = [];
    for (const ex of v.ev.exchanges) {
      for (const m of streamed(ex)) {
        n++;
        if (Array.isArray(m)) continue; // a batch answer: judged by transport-batch-reject
        if (!isObj(m) || m.jsonrpc !== '2.0') bad.push(`${ex.probe}: ${JSON.stringify(m).slice(0, 80)}`);
      }
    }
    // the HTTP+SSE wire files stream events that answer no request under unattributed
    if (v.ev.wire === 'sse') {
      for (const m of v.ev.unattributed) {
        n++;
        if (!isObj(m) || m.jsonrpc !== '2.0') bad.push(`(unattributed): ${JSON.stringify(m).slice(0, 80)}`);
      }
    }
    if (!n) return na('no answer came as an SSE stream');
    return problems(bad, `${n} SSE data event(s), each a JSON-RPC message`);
  },
);
