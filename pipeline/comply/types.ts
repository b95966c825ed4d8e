/**
 * Types of the compliance prober (`mcpgauge comply`). Data flows one way:
 * target -> gather (wire exchanges, recordable) -> judge (checks, pure) -> grade -> render.
 */

import { LEGACY_REVISION, MODERN_REVISION, type Revision } from '../mcp/protocol.ts';

/** the revisions, from the protocol home (pipeline/mcp/protocol.ts), under the prober's short names */
export const LEGACY = LEGACY_REVISION;
export const MODERN = MODERN_REVISION;
export type { Revision };
export { REVISIONS } from '../mcp/protocol.ts';
export type SpecChoice = 'auto' | Revision;

/** sse = the deprecated HTTP+SSE transport (GET stream + endpoint POSTs), 2025-11-25 only */
export type WireKind = 'stdio' | 'http' | 'sse';
export type Category = 'transport' | 'lifecycle' | 'tools' | 'resources' | 'prompts' | 'errors' | 'schema' | 'security';
export const CATEGORIES: readonly Category[] = ['transport', 'lifecycle', 'tools', 'resources', 'prompts', 'errors', 'schema', 'security'];
export type Severity = 'MUST' | 'SHOULD' | 'MAY' | 'best-practice';
/**
 * Where a check's keyword comes from: `direct` = the MCP text puts the RFC 2119 keyword on this
 * server behaviour; `json-rpc` = it follows only from "all messages MUST follow JSON-RPC 2.0"
 * plus the JSON-RPC 2.0 text; `inferred` = the spec implies it without a keyword. A MUST whose
 * basis is not `direct` is weighed as SHOULD and never caps the grade.
 */
export type Basis = 'direct' | 'json-rpc' | 'inferred';
export const BASES: readonly Basis[] = ['direct', 'json-rpc', 'inferred'];
/** server capabilities a check can be gated on */
export type Capability = 'tools' | 'resources' | 'prompts' | 'completions' | 'logging';

export interface CheckMeta {
  /** stable kebab-case id, unique across the catalog */
  id: string;
  title: string;
  category: Category;
  /** the RFC 2119 keyword of the requirement (best-practice: the spec gives none); a direct MUST is required (70% pool, caps the letter), anything else optional (30%) */
  severity: Severity;
  /** the keyword differs on these wires (e.g. a JSON-RPC rule that binds the server on HTTP only) */
  severityOn?: Partial<Record<WireKind, Severity>>;
  /** where the keyword comes from (see Basis) */
  basis: Basis;
  /** wires on which the requirement binds the client only (stdio: the client must not write invalid messages): the probe runs and its observation is reported, never graded (not_applicable/client_only) */
  clientOnlyOn?: readonly WireKind[];
  /** first and (exclusive) last revision the check applies to */
  revisions: { introduced: Revision; removed?: Revision };
  transports: readonly WireKind[];
  /** applies only when the server declares this capability */
  capability?: Capability;
  /** checks that must pass first; a failure marks this one blocked_by:<id> */
  prerequisites: readonly string[];
  /** probe ids whose exchanges the check reads */
  probes: readonly string[];
  /** spec page (URL + section anchor, listed in datasets/spec/anchors.json) and OUR OWN SUMMARY of the requirement enforced: never a quote */
  spec: { url: string; requirement: string };
  /** fixture break knob (FIXTURE_BREAK) that makes this check fail */
  knob: string;
  /** further knobs that make it fail (one defect each, e.g. a stateful-path routing bug) */
  moreKnobs?: readonly string[];
  /** one-line advice shown next to a failure */
  fix: string;
}

export type Status = 'pass' | 'fail' | 'not_applicable' | 'not_evaluable' | 'blocked_by';
export type Reason =
  | 'capability_undeclared'
  | 'transport'
  | 'revision'
  | 'auth_gate'
  | 'rate_limited'
  | 'gateway_5xx'
  | 'server_died'
  | 'unreachable'
  | 'timeout'
  | 'twin_failed'
  | 'no_population'
  | 'filtered'
  | 'client_only';

/** What a check's judge returns. */
export type Verdict =
  | { status: 'pass'; detail: string; warnings?: string[] }
  | { status: 'fail'; detail: string }
  | { status: 'not_applicable'; reason: Reason; detail: string }
  | { status: 'not_evaluable'; reason: Reason; detail: string };

export interface CheckResult {
  id: string;
  status: Status;
  /** blocked_by:<check id> when status = blocked_by */
  code: string;
  reason?: Reason;
  detail: string;
  warnings?: string[];
}

/** One HTTP request or one stdio write, and what came back for it. */
export interface Exchange {
  probe: string;
  wire: WireKind;
  /** ms since the run started, and the round-trip time */
  at: number;
  ms: number;
  request: {
    /** HTTP: verb, url path, headers (secrets redacted); stdio: absent */
    http?: { method: string; url: string; headers: Record<string, string> };
    /** exact text sent (stdio: including the newline; may be truncated in a recording past 64 KiB) */
    body: string;
    bodyBytes: number;
    /** JSON-RPC id the response is matched on (null = none expected / unreadable) */
    id: string | number | null;
  };
  response: {
    status?: number;
    headers?: Record<string, string>;
    /** raw text received (capped) */
    body: string;
    bodyBytes: number;
    truncated?: boolean;
    /** JSON-RPC messages attributed to this request (SSE data frames, stdio lines) */
    messages: unknown[];
  } | null;
  /**
   * transport-level failure instead of (or cut short) a response; `unframed`: stdio, the answer
   * came over several lines (a pretty-printed message), so it was not read as an answer
   */
  error?: { kind: 'timeout' | 'closed' | 'unreachable' | 'died' | 'too_large' | 'echoed' | 'id_mismatch' | 'unframed'; detail: string };
  /** stdio: the answer was paired with this request although its id has another JSON type (e.g. "1000" for 1000) */
  idMismatch?: { sent: string | number | null; got: unknown };
}

/** Everything the gatherer saw; a recording is this plus the target description. */
export interface Evidence {
  revision: Revision;
  wire: WireKind;
  target: string;
  exchanges: Exchange[];
  /** stdout lines that were not JSON-RPC messages (stdio), capped */
  noise: string[];
  /** stdout messages attributed to no request (stdio) */
  unattributed: unknown[];
  /** 2026-07-28 on stdio: a 2025-11-25 initialize sent as the opening message of a fresh process (the dual-era probe; kept apart from the graded exchanges) */
  freshInitialize?: Exchange;
  /** tail of the server's stderr (stdio) */
  stderrTail: string;
  /** the server process exit, when it died during the run (stdio) */
  exit?: { code: number | null; signal: string | null; afterProbe: string };
  /** HTTP: the server issued this session id (legacy) */
  sessionId?: string;
  /** stdio: root causes the wire saw (mismatched ids, echoed requests, a notification flood), first one first */
  anomalies?: string[];
  warnings: string[];
}

export interface CategoryScore {
  category: Category;
  passed: number;
  failed: number;
  evaluated: number;
  applicable: number;
}

export interface Grade {
  /** null when coverage < 50% (no grade given) */
  score: number | null;
  /** the letter after the MUST cap (unless the run was asked for --no-cap) */
  grade: 'A' | 'B' | 'C' | 'D' | 'F' | null;
  /** the plain weighted letter of the score, before the cap */
  uncapped: 'A' | 'B' | 'C' | 'D' | 'F' | null;
  /** the letter the failing MUSTs cap this grade at (B for one, C for two or more), null when none failed */
  cap: 'B' | 'C' | null;
  /** true when failing MUSTs set a cap and it was applied (false with no cap, and with --no-cap); the run-level rule is grading.capApplied */
  capApplied: boolean;
  /** ids of the failing direct-MUST checks (the ones that cap) */
  failingMust: string[];
  coverage: number;
  required: { passed: number; evaluated: number };
  optional: { passed: number; evaluated: number };
  evaluated: number;
  applicable: number;
}

export interface RunReport {
  revision: Revision;
  wire: WireKind;
  results: Array<CheckResult & { meta: CheckMeta }>;
  conformance: Grade;
  security: Grade;
  categories: CategoryScore[];
  serverInfo: { name: string | null; version: string | null; capabilities: Record<string, unknown> };
  warnings: string[];
  /** set when the server exited before answering anything: the one root cause (renderers then show no fixes) */
  startFailure?: string;
  durationMs: number;
}

export interface ComplyReport {
  schemaVersion: '2';
  tool: { name: 'mcpgauge comply'; version: string };
  target: string;
  generatedAt: string;
  era: { choice: SpecChoice; detected: Revision | 'undetermined' | null; reason: string };
  runs: RunReport[];
  /** how the letter is obtained, said in every output */
  grading: { rule: string; capApplied: boolean; requirementText: string };
  warnings: string[];
  /** how the figures were obtained */
  provenance: { kind: 'measured'; method: string };
}
