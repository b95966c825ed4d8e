/**
 * Shopify's toxiproxy, the real fault proxy of the network cells: built once with `go install`
 * from the Go module proxy into the project's cache (`CACHE_ROOT/toxiproxy/<version>/server`),
 * started per cell attempt on 127.0.0.1, driven through its HTTP API (a proxy link in front of
 * the cell's fixture, toxics added and removed). Where Go is missing the build says why in one
 * line and the network cells are skipped with that reason.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CACHE_ROOT } from '../../constants.ts';
import { freePort } from '../../adapter/index.ts';
import { spawnGroup, stopChild } from '../../util/proc.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const oneLine = (x: unknown, max = 300) => {
  const t = String(x ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
};

/** test-only: the go binary to use, or empty for none (not in --help) */
export const GO_ENV = 'MCPGAUGE_GO';
export const TOXIPROXY_MODULE = 'github.com/Shopify/toxiproxy/v2';
export const TOXIPROXY_VERSION = 'v2.5.0';
/** where the build lands: one folder per version, so a version bump never reuses an old binary */
export const TOXIPROXY_DIR = join(CACHE_ROOT, 'toxiproxy', TOXIPROXY_VERSION);
export const TOXIPROXY_BIN = join(TOXIPROXY_DIR, 'server');
/** the build takes about a minute on a 2-core machine; past this it is given up (one line) */
const BUILD_TIMEOUT_MS = 600_000;

export type ToxiproxyBuild = { ok: true; binary: string; built_ms: number | null } | { ok: false; reason: string };

/**
 * The Go toolchain: `$MCPGAUGE_GO` when set (a path; empty = no Go, so a test can stand for a
 * machine without it), else `go` on PATH, else the standard install folder /usr/local/go/bin.
 */
export function findGo(path = process.env.PATH ?? '', env: NodeJS.ProcessEnv = process.env): string | null {
  const forced = env[GO_ENV];
  if (forced !== undefined) return forced !== '' && existsSync(forced) ? forced : null;
  for (const dir of [...path.split(delimiter).filter(Boolean), '/usr/local/go/bin']) {
    const p = join(dir, 'go');
    if (existsSync(p)) return p;
  }
  return null;
}

let building: Promise<ToxiproxyBuild> | undefined;

/**
 * The cached binary, else build it (once per process; concurrent builds of other processes are
 * safe: each installs into its own temporary GOBIN and renames the binary into place).
 */
export function ensureToxiproxy(): Promise<ToxiproxyBuild> {
  if (existsSync(TOXIPROXY_BIN)) return Promise.resolve({ ok: true, binary: TOXIPROXY_BIN, built_ms: null });
  building ??= build();
  return building;
}

async function build(): Promise<ToxiproxyBuild> {
  const go = findGo();
  if (!go)
    return {
      ok: false,
      reason: `toxiproxy ${TOXIPROXY_VERSION} is not built (${TOXIPROXY_BIN}) and Go is missing (no go on PATH nor in /usr/local/go/bin): the network cells need it`,
    };
  const tmp = join(TOXIPROXY_DIR, `.build-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  const t0 = performance.now();
  const env = {
    ...process.env,
    // no HOME (some CI shells): Go's module and build caches under the cache folder too
    ...(process.env.HOME ? {} : { GOPATH: join(CACHE_ROOT, 'go'), GOCACHE: join(CACHE_ROOT, 'go-build') }),
    GOBIN: tmp,
    CGO_ENABLED: '0',
  };
  try {
    await new Promise<void>((done, fail) => {
      execFile(
        go,
        ['install', `${TOXIPROXY_MODULE}/cmd/server@${TOXIPROXY_VERSION}`],
        { env, timeout: BUILD_TIMEOUT_MS, maxBuffer: 4 << 20 },
        (err, _out, stderr) => {
          if (err)
            fail(
              new Error(
                oneLine(
                  String(stderr || err.message)
                    .trim()
                    .split('\n')
                    .slice(-2)
                    .join(' '),
                  300,
                ),
              ),
            );
          else done();
        },
      );
    });
    renameSync(join(tmp, 'server'), TOXIPROXY_BIN);
    return { ok: true, binary: TOXIPROXY_BIN, built_ms: Math.round(performance.now() - t0) };
  } catch (e) {
    return { ok: false, reason: `toxiproxy ${TOXIPROXY_VERSION} could not be built with ${go} install (${(e as Error).message})` };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** One toxic as toxiproxy's API takes it (and as each network verdict reports it). */
export interface Toxic {
  name: string;
  type: 'latency' | 'reset_peer' | 'timeout' | 'limit_data' | 'slow_close' | 'bandwidth' | 'slicer';
  /** downstream: fixture -> proxy under test (the response); upstream: the request */
  stream: 'downstream' | 'upstream';
  toxicity: number;
  attributes: Record<string, number>;
}

export interface Toxiproxy {
  /** the API's base URL (127.0.0.1) */
  api: string;
  pid: number | undefined;
  /** create a link `listen` (127.0.0.1:port) -> `upstream` (host:port) */
  link(name: string, upstream: string): Promise<{ listen: string; port: number }>;
  addToxic(link: string, t: Toxic): Promise<void>;
  removeToxic(link: string, name: string): Promise<void>;
  /** the toxics toxiproxy says are set on a link now */
  toxics(link: string): Promise<Toxic[]>;
  stop(): Promise<void>;
}

async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
  } catch (e) {
    // fetch says only "fetch failed": name the call and the cause (ECONNREFUSED: toxiproxy is gone)
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message;
    throw new Error(`toxiproxy ${method} ${path}: ${(e as Error).message}${why ? ` (${oneLine(why, 120)})` : ''}`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`toxiproxy ${method} ${path}: HTTP ${res.status} ${oneLine(text, 200)}`);
  // /version answers plain text (a `go install` build says "git"); the rest JSON
  if (!text || !(res.headers.get('content-type') ?? '').includes('json')) return text;
  return JSON.parse(text);
}

/** Start a toxiproxy server on a free 127.0.0.1 port; `env` carries the cell's tag (the run's sweep finds it). */
export async function startToxiproxy(
  binary: string,
  o: { env: Record<string, string>; log: string; readyMs?: number },
): Promise<Toxiproxy> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // a Go program does not watch its parent: a small shell beside it ends it once the gate is gone
  // (a gate killed with -9 leaves no toxiproxy behind); stopChild ends the whole group
  const watch =
    '"$0" -host 127.0.0.1 -port "$1" & c=$!; while kill -0 "$2" 2>/dev/null && kill -0 "$c" 2>/dev/null; do sleep 0.5; done; kill "$c" 2>/dev/null; wait "$c"';
  const child: ChildProcess = spawnGroup('/bin/sh', ['-c', watch, binary, String(port), String(process.pid)], {
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    label: 'toxiproxy',
  });
  // a Go panic ends toxiproxy (its watchdog shell notices up to 0.5 s later): its first line says why
  let panicked: string | null = null;
  const onData = (d: Buffer) => {
    appendFileSync(o.log, d);
    panicked ??= /^panic: .*$/m.exec(d.toString('utf8'))?.[0] ?? null;
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited: string | null = null;
  child.once('exit', (code, sig) => (exited = `exited (code ${code}, signal ${sig})`));
  const deadline = Date.now() + (o.readyMs ?? 20_000);
  let last = 'never answered';
  for (;;) {
    if (exited) throw new Error(`toxiproxy ${exited} before its API answered on ${base}`);
    try {
      await api(base, 'GET', '/version');
      break;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > deadline) {
      await stopChild(child, { graceMs: 500 });
      throw new Error(`toxiproxy did not answer on ${base} within ${o.readyMs ?? 20_000} ms (${oneLine(last, 120)})`);
    }
    await sleep(50);
  }
  const call = (method: string, path: string, body?: unknown) =>
    api(base, method, path, body).catch((e: Error) => {
      throw panicked ? new Error(`${e.message}; toxiproxy crashed: ${oneLine(panicked, 200)} (toxiproxy.log)`) : e;
    });
  return {
    api: base,
    pid: child.pid,
    async link(name, upstream) {
      // toxiproxy binds port 0 itself and answers with the port it got: no port picked here and
      // released, which a proxy starting in a parallel cell could have been handed too
      const made = (await call('POST', '/proxies', { name, listen: '127.0.0.1:0', upstream, enabled: true })) as { listen?: unknown };
      const port = Number(/^127\.0\.0\.1:(\d+)$/.exec(String(made?.listen))?.[1]);
      if (!Number.isInteger(port) || port <= 0)
        throw new Error(`toxiproxy POST /proxies: no bound 127.0.0.1 port in its answer (listen ${JSON.stringify(made?.listen)})`);
      return { listen: `127.0.0.1:${port}`, port };
    },
    async addToxic(link, t) {
      await call('POST', `/proxies/${encodeURIComponent(link)}/toxics`, t);
    },
    async removeToxic(link, name) {
      await call('DELETE', `/proxies/${encodeURIComponent(link)}/toxics/${encodeURIComponent(name)}`);
    },
    async toxics(link) {
      return (await call('GET', `/proxies/${encodeURIComponent(link)}/toxics`)) as Toxic[];
    },
    async stop() {
      await stopChild(child, { graceMs: 1000 });
    },
  };
}

/** What a network step needs besides the fixtures: the fault proxy and the link it puts faults on. */
export interface NetworkRig {
  toxiproxy: Toxiproxy;
  /** toxiproxy's name of the link in front of gate_main */
  link: string;
  /** the port the proxy under test connects to (toxiproxy's side of the link) */
  listenPort: number;
  /** the fixture's own address behind the link */
  upstream: string;
  /** tag prefix of every process of this cell attempt (`<run>/<cell>/`) */
  tagPrefix: string;
  /** connections to the link before the attempt's first fault (set by the first network step) */
  baselineConnections?: number;
}
