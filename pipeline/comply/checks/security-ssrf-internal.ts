import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { injectionVerdict } from '../injection-verdict.ts';
import { INJECTIONS } from '../security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-ssrf-internal',
    title: 'A URL argument naming the cloud metadata address returns no internal data',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: [INJECTIONS.ssrf.probe],
    spec: { url: specUrl(LEGACY, 'server/tools#security-considerations'), sentence: 'Servers MUST: Validate all tool inputs; Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs. (A URL argument must not let a caller reach internal addresses such as 169.254.169.254.)' },
    knob: 'ssrf-internal',
    fix: 'Resolve the host and refuse loopback, link-local and private ranges before fetching.',
  },
  (v) => injectionVerdict(v, 'ssrf', 'no tool annotated readOnlyHint:true takes a URL-like argument (the SSRF payload goes to URL arguments of read-only tools only)'),
);
