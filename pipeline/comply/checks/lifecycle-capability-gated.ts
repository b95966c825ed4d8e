import { ANY_WIRE, BOTH_ERAS, defineCheck, na, pass, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const LISTS = [
  ['tools', 'tools-list'],
  ['resources', 'resources-list'],
  ['prompts', 'prompts-list'],
] as const;

export default defineCheck(
  {
    id: 'lifecycle-capability-gated',
    title: 'List methods of undeclared capabilities are refused',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['tools-list', 'resources-list', 'prompts-list'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#capability-negotiation'),
      requirement:
        "Server SHOULD refuse, with -32601 (Method not found), a list method of a capability it did not declare (the spec's MUST is that both sides stick to negotiated capabilities; the code is our reading).",
    },
    knob: 'capabilities-mismatch',
    fix: 'Declare every capability you serve, and answer -32601 for the ones you do not declare.',
  },
  (v) => {
    const caps = v.caps();
    const undeclared = LISTS.filter(([cap]) => !(cap in caps));
    if (!undeclared.length) return na('every one of tools, resources and prompts is declared');
    const bad: string[] = [];
    for (const [cap, probe] of undeclared) {
      const gate = v.unusable(probe);
      if (gate) return gate;
      if (v.result(probe)) bad.push(`${cap} is not declared but ${probe.replace('-', '/')} was served`);
    }
    return bad.length ? problems(bad, '') : pass(`undeclared ${undeclared.map(([c]) => c).join(', ')}: refused`);
  },
);
