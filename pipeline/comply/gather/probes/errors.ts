/** Probes of the error checks: an unknown method, tool and resource, a call without a name, a bad cursor, and raw bytes (malformed JSON, an invalid request). */
import { UNKNOWN_TOOL, cheap, req, type Probe } from './kit.ts';

/** a resource URI no server holds */
export const MISSING_URI = 'mcpgauge://no-such-resource/7f3a';

export const ERRORS_PROBES: readonly Probe[] = [
  { id: 'unknown-method', stage: 2, build: (c) => req(c, 'mcpgauge/no-such-method') },
  { id: 'tools-call-unknown', stage: 3, build: (c) => req(c, 'tools/call', { name: UNKNOWN_TOOL, arguments: {} }) },
  { id: 'tools-call-no-name', stage: 3, build: (c) => req(c, 'tools/call', {}) },
  { id: 'tools-list-bad-cursor', stage: 3, build: (c) => req(c, 'tools/list', { cursor: 'mcpgauge-invalid-cursor-7f3a' }) },
  { id: 'resources-read-missing', stage: 3, build: (c) => req(c, 'resources/read', { uri: MISSING_URI }) },
  {
    id: 'parse-error',
    stage: 4,
    build: (c) => ({ built: cheap(c).built, raw: '{"jsonrpc": "2.0", "id": 7, "method": "x", not json', expect: 'idless' }),
  },
  {
    id: 'invalid-request',
    stage: 4,
    build: (c) => ({
      built: cheap(c).built,
      raw: JSON.stringify({ jsonrpc: '2.0', id: 'mcpgauge-invalid-request', method: 42 }),
      matchId: 'mcpgauge-invalid-request',
      expect: 'idless',
    }),
  },
];
