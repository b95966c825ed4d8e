/**
 * Front-door checks of an HTTP POST body, shared by the fixture and the reference proxy: the SDK
 * session transport answers JSON that is not a JSON-RPC message with -32700 (reserved for text
 * that does not parse) and its legacy fallback still runs batches, which 2025-06-18 removed.
 * Both are answered here, before the SDK, with -32600. Also the JSON-RPC error codes and the
 * error-message builder every hand-written answer uses.
 */

/** JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object) and MCP's own. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP 2026-07-28: the request names a protocol revision the server does not support */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type JsonRpcId = string | number | null;

/** A JSON-RPC error response `{jsonrpc, id, error: {code, message[, data]}}`. */
export function rpcError(
  id: unknown,
  code: number,
  message: string,
  data?: unknown,
): { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string; data?: unknown } } {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

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
export function invalidRequestBody(
  body: unknown,
  why: string,
): { jsonrpc: '2.0'; id: string | number | null; error: { code: -32600; message: string } } {
  return { jsonrpc: '2.0', id: readableId(body), error: { code: -32600, message: `Invalid Request: ${why}` } };
}
