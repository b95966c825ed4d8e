/**
 * The wire seam: a wire sends one concrete request (bytes + HTTP verb/headers) and returns an
 * Exchange. Wires know nothing about MCP semantics; request-builder.ts builds the bytes.
 */
import type { Exchange, WireKind } from '../types.ts';

export interface WireRequest {
  probe: string;
  /** exact text to send (stdio: without the trailing newline unless `rawLine`) */
  body: string;
  /** JSON-RPC id to match the answer on; null = nothing to match (notification, raw bytes) */
  id: string | number | null;
  /** 'reply' = wait for the response with `id`; 'none' = notification; 'idless' = stdio raw bytes, collect id-less errors */
  expect: 'reply' | 'none' | 'idless';
  /** HTTP verb and headers; `url` sends to another URL than the target's (absolute: a query-string or well-known probe) */
  http?: { method: string; headers: Record<string, string>; url?: string };
  /** stdio: write the line in two chunks (partial-line probe) */
  split?: boolean;
  /** stdio: send `body` as given, no newline appended (partial line at end of input) */
  rawLine?: boolean;
  timeoutMs?: number;
  /** HTTP: stop after the status line and headers (a GET that may open an endless stream) */
  headersOnly?: boolean;
  /** HTTP: the body is a document, not JSON-RPC: kept as text, nothing parsed into messages */
  document?: boolean;
}

export interface Wire {
  readonly kind: WireKind;
  send(req: WireRequest): Promise<Exchange>;
  /** stdio: non-protocol stdout lines, unattributed messages, stderr tail, exit */
  state(): {
    noise: string[];
    unattributed: unknown[];
    stderrTail: string;
    exit?: { code: number | null; signal: string | null; afterProbe: string };
    anomalies?: string[];
  };
  close(): Promise<void>;
}

/** Largest response body (HTTP) or stdout line (stdio) kept; beyond it the answer is cut and reported. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Request bodies longer than this are stored shortened in recordings (the byte count stays exact). */
export const RECORD_BODY_CAP = 64 * 1024;

export function clip(s: string, cap = RECORD_BODY_CAP): string {
  return s.length > cap ? `${s.slice(0, cap)}…[${s.length - cap} more chars]` : s;
}

/** Is this a JSON-RPC response (result or error)? */
export function isResponse(m: unknown): m is { id?: unknown; result?: unknown; error?: unknown } {
  return typeof m === 'object' && m !== null && !Array.isArray(m) && ('result' in m || 'error' in m) && !('method' in m);
}

/** Key for matching ids exactly: 1 and "1" are different ids. */
export function idKey(id: unknown): string {
  return JSON.stringify(id ?? null);
}
