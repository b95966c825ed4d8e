import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-method-code',
    title: 'The unknown-method error is exactly -32601',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-unknown-method'],
    probes: ['unknown-method', 'twin'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'Method not found: -32601 (JSON-RPC 2.0 standard error code, used by MCP for unknown methods).' },
    knob: 'unknown-method-wrong-code',
    fix: 'Use -32601 for unknown methods.',
  },
  (v) => v.rejected('unknown-method', 'mcpgauge/no-such-method', { codes: [-32601] }),
);
