import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { injectionVerdict } from '../injection-verdict.ts';
import { INJECTIONS } from '../security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-sql-injection',
    title: 'A SQL payload in a read-only tool argument draws no database error',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: [INJECTIONS.sql.probe],
    spec: { url: specUrl(LEGACY, 'server/tools#security-considerations'), sentence: 'Servers MUST: Validate all tool inputs; Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs. (Arguments must reach a database only as bound parameters.)' },
    knob: 'sql-injection',
    fix: 'Use parameterized queries; never splice arguments into SQL text.',
  },
  (v) => injectionVerdict(v, 'sql', 'no tool annotated readOnlyHint:true takes a free-form string argument (payloads go to read-only tools only)'),
);
