/** Which protocol era an HTTP MCP message belongs to (2026-07-28 carries a per-request envelope). */

export const MODERN_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const MODERN_REVISION = '2026-07-28';

type Msg = { params?: { _meta?: Record<string, unknown> } };

/** true when the body (or the MCP-Protocol-Version header) claims the 2026-07-28 era or later. */
export function isModernHttpMessage(body: unknown, headers: Record<string, string | string[] | undefined>): boolean {
  const one = (Array.isArray(body) ? body[0] : body) as Msg | undefined;
  const v = one?.params?._meta?.[MODERN_VERSION_KEY];
  if (typeof v === 'string') return v >= MODERN_REVISION;
  const h = headers['mcp-protocol-version'];
  return typeof h === 'string' && h >= MODERN_REVISION;
}
