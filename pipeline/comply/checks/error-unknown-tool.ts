import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-unknown-tool',
    title: 'tools/call of an unknown tool is a -32602 protocol error',
    category: 'errors',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-call'],
    probes: ['tools-call-unknown', 'tools-call'],
    spec: { url: specUrl(LEGACY, 'server/tools#error-handling'), sentence: 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools (example -32602 "Unknown tool: invalid_tool_name") (no normative keyword in the text; graded SHOULD).' },
    knob: 'unknown-tool-ok',
    fix: 'Answer tools/call of an unknown name with -32602.',
  },
  (v) => v.rejected('tools-call-unknown', 'unknown tool', { twin: 'tools-call', codes: [-32602] }),
);
