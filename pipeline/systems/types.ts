/**
 * The contract of a `--system` kind (one file in kinds/, listed once in kinds/index.ts) and the
 * shapes it works with: the context a system is opened in, an opened system, the side-by-side
 * measurement's inputs.
 */
import type { ProtocolChoice, WireTool } from '../mcp/client.ts';
import type { UpstreamConfig } from '../proxy/config.ts';
import type { AdapterOptions, DiscoverResult } from '../adapter/index.ts';
import type { LiveOptions } from '../live/types.ts';
import type { SystemBlock } from '../report/index.ts';
import type { Turnstile } from './turnstile.ts';

export { MCPGAUGE_BIN } from '../constants.ts';

/** One parsed `--system` value of kind K with the kind's own options O. */
export type SpecOf<K extends string, O> = {
  name: string;
  kind: K;
  /** the SPEC text as given (display; a cmd template never holds the API key itself) */
  spec: string;
} & O;

export interface SystemContext {
  /** the upstream servers every system fronts (proxy-config entries) */
  upstreams: UpstreamConfig[];
  /** a folder this system may write to (its generated config) */
  workDir: string;
  /** tools the upstreams list directly (readiness target of proxies that report their count) */
  expectedTools: number;
  /** a query whose results show that a proxy has indexed something */
  probeQuery: string;
  timeoutMs: number;
  readyTimeoutMs: number;
  adapter?: AdapterOptions;
  protocol?: ProtocolChoice;
  /** url systems: API key */
  apiKey?: string;
}

export interface OpenedSystem {
  spec: SpecOf<string, object>;
  description: string;
  /** pid of the proxy process (memory), when this run started it */
  pid?: number;
  /** from start (or first contact) until ready, client-measured */
  readyMs: number;
  readyRule: string;
  /** what the system lists: for direct the union of the upstreams (server-tagged), else the proxy's own tools/list */
  menu: { server: string; tool: WireTool }[];
  /** discovery-style proxies only */
  discover?: (query: string, o: { limit?: number; detail?: 'full' | 'compact'; timeoutMs?: number }) => Promise<DiscoverResult>;
  /** list the whole menu again (every page of every upstream); resolves with the wall time in ms */
  relist(): Promise<number>;
  close(): Promise<void>;
}

/** What a side-by-side run (systems/live.ts) gives each system. */
export interface MeasureEnv {
  /** the live options of the run (log lines already prefixed with the system's name) */
  base: LiveOptions;
  /** the embedded upstreams every system fronts */
  upstreams: UpstreamConfig[];
  /** a proxy config listing them ({CONFIG_FILE}, the live stage's --upstreams) */
  configFile: string;
  /** the run's temp folder */
  dir: string;
  /** every measured call passes it, so calls alternate between systems */
  turns: Turnstile;
}

/** One `--system` kind: its SPEC syntax, parser, how it is opened, how it is measured side by side. */
export interface SystemKindEntry<K extends string = string, O extends object = object> {
  kind: K;
  /** the SPEC syntax as help and errors show it, e.g. `reference[:retriever=ID]` */
  syntax: string;
  /** one line for the READMEs */
  description: string;
  /** a SPEC of this kind that parses (docs; test/systems/kinds.test.ts parses it) */
  example: string;
  /** the text a SPEC of this kind starts with (a leading NAME= is only split off a value not starting so) */
  start: string;
  /** does SPEC (NAME= removed) belong to this kind */
  accepts(spec: string): boolean;
  /** SPEC -> the parsed value (NAME defaults are the kind's); bad input is a one-line UserError naming `where` */
  parse(spec: string, name: string | undefined, where: string): SpecOf<K, O>;
  /** start (or reach) the system in front of ctx.upstreams and wait until it is ready (the scale sweep) */
  open(spec: SpecOf<K, O>, ctx: SystemContext): Promise<OpenedSystem>;
  /** its block of a side-by-side run */
  measure(spec: SpecOf<K, O>, env: MeasureEnv): Promise<SystemBlock>;
  /** a system that cannot be put in front of other upstreams (the scale sweep's catalogs): what it is, and the reason its points fail */
  fixedUpstreams?: { what: string; reason: string };
}
