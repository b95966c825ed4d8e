/**
 * Front-door checks of an HTTP POST body, shared by the fixture and the reference proxy: the SDK
 * session transport answers JSON that is not a JSON-RPC message with -32700 (reserved for text
 * that does not parse) and its legacy fallback still runs batches, which 2025-06-18 removed.
 * Both are answered here, before the SDK, with -32600.
 */

/** Why a parsed body is not one JSON-RPC 2.0 message, or null when it is one. */
export function invalidEnvelope(body: unknown): string | null {
  if (Array.isArray(body)) return 'JSON-RPC batches are not supported';
  if (body === null || typeof body !== 'object') return 'the body is not a JSON object';
  const m = body as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in m) return typeof m.method === 'string' ? null : 'method must be a string';
  if (m.id === undefined || !('result' in m || 'error' in m)) return 'neither a request, a notification nor a response';
  return null;
}

/** The request id when the body has a readable one (so the -32600 error can echo it), else null. */
export function readableId(body: unknown): string | number | null {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The JSON-RPC error body for an invalid envelope. */
export function invalidRequestBody(body: unknown, why: string): { jsonrpc: '2.0'; id: string | number | null; error: { code: -32600; message: string } } {
  return { jsonrpc: '2.0', id: readableId(body), error: { code: -32600, message: `Invalid Request: ${why}` } };
}
