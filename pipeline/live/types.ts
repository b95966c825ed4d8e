/**
 * Types of the live stage shared by its modules and the CLI (kept here so flags, targets and
 * run do not import each other).
 */
import type { ProtocolChoice } from '../mcp/client.ts';
import type { Detail } from '../report/index.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';

/** Upstreams the embedded default boots: the project's fixture and the four npm reference servers. */
export const EMBEDDED_SERVERS = ['fixture', 'filesystem', 'memory', 'sequential-thinking', 'everything'] as const;

export interface TargetOptions {
  proxyUrl?: string;
  apiKey?: string;
  proxyCmd?: string;
  /** proxy-config-format file listing the upstreams of an external proxy (full menu over the wire) */
  upstreamsFile?: string;
  /** embedded only: which upstreams to boot (default all five) */
  embeddedServers?: readonly string[];
  /** embedded only: the reference proxy's retriever (its config's `retriever`; absent = its default) */
  retriever?: string;
  /** connect + tools/list deadline (ms, default DEFAULT_CONNECT_TIMEOUT_MS) */
  timeoutMs?: number;
  readyTimeoutMs?: number;
  protocol?: ProtocolChoice;
  /** embedded only: that retriever's options (e.g. embed's url and model) */
  retrieverOptions?: RetrieverOptions;
  /** --proxy-url transport: auto (streamable HTTP, SSE on 404/405), streamable-http or sse */
  transport?: 'auto' | 'streamable-http' | 'sse';
  log?: (line: string) => void;
}

export interface ArgNames {
  query: string;
  /** null: never send a limit */
  limit: string | null;
  /** null: the proxy has no detail argument (only `full` is measured) */
  detail: string | null;
}

export interface LiveOptions extends TargetOptions {
  /** discovery tool name (default retrieve_tools) */
  discoveryTool?: string;
  argNames?: Partial<ArgNames>;
  /** `limit` sent with every discovery call (default 10) */
  limit?: number;
  /** which detail levels to measure (default both; compact only when the tool declares the detail argument) */
  details?: Detail[];
  goldenFile?: string;
  /** accept a golden set made for another version of the corpus */
  allowVersionMismatch?: boolean;
  corpusFile?: string;
  /** use only the first N golden queries (speed) */
  maxQueries?: number;
  /** measured passes over the queries (default 3) */
  runs?: number;
  /** warm-up calls per detail before measuring (default 2) */
  warmup?: number;
  /** tokenizer names (default both) */
  tokenizers?: string[];
  lapJson?: string;
  /** 'off' = --no-lap; 'offline' = use the built venv only; default $MCPGAUGE_LAP, else auto */
  lap?: 'auto' | 'off' | 'offline';
  /** executable to run as `lap` (default: the pinned lap-score venv, lap_venv.ts) */
  lapCommand?: string;
  /** per discovery call deadline (ms, default 30000) */
  callTimeoutMs?: number;
  /** call the golden calls' tools through the proxy and directly (result cost); default true */
  resultCalls?: boolean;
  /** the proxy's tool that runs an upstream tool (default call_tool) */
  callTool?: string;
  /** the call tool's argument carrying the upstream tool name (default name) */
  callNameArg?: string;
  /** the call tool's argument carrying the upstream tool's arguments (default arguments) */
  callArgsArg?: string;
  /** a golden call runs when its tool is within the proxy's first N results (default 1: top-1 only) */
  resultTopK?: number;
  /** retrieval bootstrap (default 2000 iterations, seed 42) */
  bootstrap?: { iterations: number; seed: number };
  /** discovery | passthrough | auto (default: discovery when tools/list has the discovery tool) */
  style?: 'auto' | 'discovery' | 'passthrough';
  /** who set `style` when it is not auto (display; default --style) */
  styleSource?: string;
  /** pass-through names: upstream "server:tool" -> the proxy's name (else matched by suffix) */
  toolMap?: Record<string, string>;
  /** --golden none: no discovery queries at all (menus and the latency of a cheap call only) */
  noGolden?: boolean;
  /** largest share of failed measured calls for a run that is not marked failed (default 0) */
  maxErrorRate?: number;
  /** every discovery call goes through this (side-by-side systems take turns; systems/turnstile.ts) */
  turns?: { run<T>(fn: () => Promise<T>): Promise<T> };
}
