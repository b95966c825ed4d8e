import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { injectionVerdict } from '../injection-verdict.ts';
import { INJECTIONS } from '../security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-path-traversal',
    title: 'A ../ path in a read-only tool argument does not read files outside the served scope',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: [INJECTIONS.traversal.probe],
    spec: { url: specUrl(LEGACY, 'server/tools#security-considerations'), sentence: 'Servers MUST: Validate all tool inputs; Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs. (Paths must be resolved and confined to the roots the server exposes.)' },
    knob: 'path-traversal',
    fix: 'Resolve paths (realpath) and refuse anything outside the allowed roots.',
  },
  (v) => injectionVerdict(v, 'traversal', 'no tool annotated readOnlyHint:true takes a free-form string argument (payloads go to read-only tools only)'),
);
