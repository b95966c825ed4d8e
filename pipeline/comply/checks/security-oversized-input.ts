import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { OVERSIZED_BYTES } from '../gather/probes/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-oversized-input',
    title: `A ${OVERSIZED_BYTES / 1048576} MiB tool argument is refused or handled, and the server keeps serving`,
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['oversized-input', 'alive'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        "Best practice: server refuses or handles a very large tool argument instead of crashing; the spec's MUST is that tool input is validated.",
    },
    knob: 'crash-on-large-input',
    fix: 'Bound input size (413 / -32602) instead of crashing.',
  },
  (v) => {
    const e = v.x('oversized-input');
    if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: 'not sent (no callable tool, or --no-invasive)' };
    const gate = v.unusable('oversized-input');
    if (gate && !('reason' in gate && gate.reason === 'gateway_5xx')) return gate;
    if (e.error?.kind === 'died') return fail(`the server died on a ${OVERSIZED_BYTES}-byte argument: ${e.error.detail}`);
    const alive = v.x('alive');
    if (alive && !v.reply('alive'))
      return fail(`the server stopped answering after the oversized input (${alive.error?.detail ?? 'no reply'})`);
    if (e.response?.status !== undefined && e.response.status >= 500) return fail(`HTTP ${e.response.status} on oversized input`);
    if (v.reply('oversized-input') || (e.response?.status ?? 0) >= 400)
      return pass(
        v.error('oversized-input') ? `refused with ${v.error('oversized-input')!.code}` : `answered (HTTP ${e.response?.status ?? '-'})`,
      );
    return fail(`no answer to the oversized input (${e.error?.detail ?? 'none'})`);
  },
);
