import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { injectionVerdict } from '../injection-verdict.ts';
import { INJECTIONS } from '../security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-command-injection',
    title: 'A shell payload in a read-only tool argument is not executed',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: [INJECTIONS.command.probe],
    spec: { url: specUrl(LEGACY, 'server/tools#security-considerations'), sentence: 'Servers MUST: Validate all tool inputs; Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs. (A payload such as "; id" must never reach a shell.)' },
    knob: 'command-injection',
    fix: 'Never build shell commands from arguments; pass them as argv to execFile, or validate against an allow-list.',
  },
  (v) => injectionVerdict(v, 'command', 'no tool annotated readOnlyHint:true takes a free-form string argument (payloads go to read-only tools only)'),
);
