/**
 * LAP (lap-score) independent verdict for the live stage. Never fails the run: every problem
 * becomes `{executed: false, skip_reason}` (one line naming what was missing).
 *
 * - `--lap-json FILE`: merge an external `lap lint --json` result (reads `grade.letter` or a
 *   grade string, and `menu_tokens`).
 * - else, when the proxy has an HTTP URL: the pinned `lap-score[mcp]` in a private venv under
 *   `.cache/venvs/` (lap_venv.ts; built once, atomically) runs `lap lint --mcp-url URL --json`.
 *   LAP never sees the proxy's own URL: it talks to a loopback forwarder (this file) that adds the
 *   run's headers (API key) and the URL's query on the way through, so no secret is in lap's
 *   argv, output or errors. lap runs with the allow-listed child environment (no
 *   ANTHROPIC_API_KEY: it counts with tiktoken cl100k_base, offline, the tokenizer of
 *   `in_house_menu_tokens`).
 * - a stdio target has no URL: skipped with that reason.
 * Switches: `--no-lap` / `MCPGAUGE_LAP=off`; `MCPGAUGE_LAP=offline` uses a built venv, never installs.
 * divergence_pct = 100 * (lap_menu - in_house_menu) / in_house_menu; |divergence| > 15 warns
 * (LAP frames the menu differently: JSON of {name, description, input_schema} per tool).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { LapResult } from '../report/index.ts';
import type { McpTarget } from '../mcp/client.ts';
import { allowedEnv, runGroup } from '../util/proc.ts';
import { redactText } from '../util/redact.ts';
import { ensureLapVenv, LAP_ENV, type EnsureVenvOptions } from './lap_venv.ts';
import { isInputRefusal, readInputText } from '../util/fs.ts';

export { findOnPath } from './lap_venv.ts';

export const LAP_DIVERGENCE_WARN_PCT = 15;
export type LapMode = 'auto' | 'off' | 'offline';
export const LAP_MODES: readonly LapMode[] = ['auto', 'off', 'offline'];

export interface LapOptions {
  /** external lap JSON to merge */
  lapJson?: string;
  /** 'off' skips LAP entirely; 'offline' never installs the venv; default: $MCPGAUGE_LAP, else auto */
  mode?: LapMode;
  /** executable to run instead of the venv's lap (absolute path; tests) */
  lapCommand?: string;
  /** in-house proxy menu tokens (cl100k_base) to compare with */
  inHouseMenuTokens: number;
  /** HTTP URL of the proxy (lap needs one) */
  httpUrl?: string;
  /** how the live stage reaches the proxy (its headers and, for SSE, its URL) */
  target?: McpTarget;
  /** where the venv lives, which python (lap_venv.ts) */
  venv?: EnsureVenvOptions;
  log?: (msg: string) => void;
  timeoutMs?: number;
}

/** Parse a lap JSON document (text) into a LapResult, or a skip reason. */
export function parseLapText(text: string, where: string, inHouse: number): LapResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { executed: false, skip_reason: `LAP artifact ${where} is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { executed: false, skip_reason: `LAP artifact ${where} is not a JSON object` };
  }
  const d = data as Record<string, unknown>;
  const menu = d.menu_tokens;
  if (typeof menu !== 'number' || !Number.isFinite(menu) || menu <= 0) {
    return { executed: false, skip_reason: `LAP artifact ${where} has no positive menu_tokens (got ${JSON.stringify(menu ?? null)})` };
  }
  const out: LapResult = { executed: true, menu_tokens: menu };
  const grade = d.grade;
  if (typeof grade === 'string') out.grade = grade;
  else if (grade && typeof grade === 'object' && typeof (grade as Record<string, unknown>).letter === 'string') {
    out.grade = (grade as Record<string, string>).letter;
  }
  if (typeof d.version === 'string') out.version = d.version;
  if (inHouse > 0) {
    const div = (100 * (menu - inHouse)) / inHouse;
    out.in_house_menu_tokens = inHouse;
    out.divergence_pct = Math.round(div * 100) / 100;
    if (Math.abs(div) > LAP_DIVERGENCE_WARN_PCT) {
      out.warning =
        `LAP counts ${menu} menu tokens, ours ${inHouse} (cl100k_base): ${div > 0 ? '+' : ''}${out.divergence_pct}% ` +
        `(more than ±${LAP_DIVERGENCE_WARN_PCT}%; LAP frames the menu differently, check both before quoting either)`;
    }
  }
  return out;
}

/**
 * A loopback HTTP forwarder in front of the proxy: lap gets `http://127.0.0.1:PORT/mcp` (or
 * `/sse`); a request there goes on to the proxy URL (its path and query, which may hold a key)
 * with the run's headers added. Other paths (an SSE message endpoint) pass as they are.
 */
export async function startForwarder(
  to: string,
  headers: Record<string, string> = {},
  sse = false,
): Promise<{ url: string; close(): Promise<void> }> {
  const up = new URL(to);
  const send = up.protocol === 'https:' ? httpsRequest : httpRequest;
  const entry = sse ? '/sse' : '/mcp';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = u.pathname + u.search;
    if (u.pathname === entry) {
      const q = new URLSearchParams(up.search);
      for (const [k, v] of u.searchParams) q.append(k, v);
      const qs = q.toString();
      path = up.pathname + (qs ? `?${qs}` : '');
    }
    const h: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'host') h[k] = v;
    const out = send(
      {
        protocol: up.protocol,
        hostname: up.hostname,
        port: up.port,
        method: req.method,
        path,
        headers: { ...h, ...headers, host: up.host },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`forwarder: ${e.message}`);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${entry}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type LapRun = { ok: true; stdout: string } | { ok: false; error: string };

/**
 * lap (or the python that runs it, a wrapper, what it starts) in its own process group
 * (util/proc.ts runGroup): at the deadline the whole group is stopped, and what lap leaves in its
 * group when it exits is killed.
 */
async function runLap(argv: string[], url: string, timeoutMs: number, env: Record<string, string>, secrets: string[]): Promise<LapRun> {
  const r = await runGroup(argv[0], [...argv.slice(1), 'lint', '--mcp-url', url, '--json'], {
    timeoutMs,
    env,
    label: 'lap lint',
    maxBytes: 16 * 1024 * 1024,
  });
  if (r.ok || (!r.timedOut && !r.spawnError && r.stdout.trim())) return { ok: true, stdout: r.stdout };
  const how = r.spawnError
    ? `cannot start ${argv[0]}: ${r.spawnError}`
    : r.timedOut
      ? `no answer within ${timeoutMs} ms (lap and what it started were stopped)`
      : r.signal
        ? `${argv[0]} was killed by ${r.signal}`
        : `${argv[0]} exited with code ${r.exitCode}`;
  const tail = r.stderr.trim().split('\n').filter(Boolean).slice(-1).join('');
  return { ok: false, error: redactText(`${how}${tail ? ` (${tail})` : ''}`, secrets) };
}

/** --no-lap wins, else $MCPGAUGE_LAP, else auto. */
export function lapMode(mode: LapMode | undefined, env: NodeJS.ProcessEnv = process.env): LapMode | { bad: string } {
  if (mode !== undefined) return mode;
  const v = env[LAP_ENV];
  if (v === undefined || v === '') return 'auto';
  return (LAP_MODES as readonly string[]).includes(v) ? (v as LapMode) : { bad: v };
}

export const LAP_NO_URL_REASON =
  'skipped: lap needs an HTTP proxy URL (the target is a stdio command); serve the proxy over HTTP and pass --proxy-url ' +
  '(the embedded default and HTTP-served presets have one)';

/** The LAP block of the live report. Never throws. */
export async function lapSection(o: LapOptions): Promise<LapResult> {
  try {
    // order: --no-lap, --lap-json, no URL, then $MCPGAUGE_LAP (off / offline / auto)
    if (o.mode === 'off') return { executed: false, skip_reason: 'skipped: LAP disabled (--no-lap)' };
    if (o.lapJson !== undefined) {
      let text: string;
      try {
        text = readInputText(o.lapJson, 'a LAP JSON file');
      } catch (e) {
        return {
          executed: false,
          skip_reason: `LAP artifact unreadable: ${isInputRefusal(e) ? e.message : `${o.lapJson}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`}`,
        };
      }
      const r = parseLapText(text, o.lapJson, o.inHouseMenuTokens);
      if (r.executed) r.artifact_path = o.lapJson;
      return r;
    }
    const t = o.target;
    if (!o.httpUrl || t?.kind === 'stdio') return { executed: false, skip_reason: LAP_NO_URL_REASON };
    const mode = lapMode(o.mode);
    if (typeof mode === 'object')
      return { executed: false, skip_reason: `skipped: ${LAP_ENV}=${JSON.stringify(mode.bad)} is not one of ${LAP_MODES.join(', ')}` };
    if (mode === 'off') return { executed: false, skip_reason: `skipped: LAP disabled (${LAP_ENV}=off)` };
    let argv: string[];
    let version: string | undefined;
    let tiktokenCache: string | undefined;
    if (o.lapCommand) argv = [o.lapCommand];
    else {
      const v = await ensureLapVenv({ log: o.log, ...o.venv, offline: mode === 'offline' || o.venv?.offline });
      if (!v.ok) {
        o.log?.(`live: LAP ${v.reason}`);
        return { executed: false, skip_reason: v.reason };
      }
      argv = v.argv;
      version = v.version;
      tiktokenCache = v.tiktokenCache;
    }
    const headers = t && 'headers' in t ? (t.headers ?? {}) : {};
    const secrets = Object.values(headers).flatMap((h) => [h, h.replace(/^Bearer\s+/i, '')]);
    const sseUrl = t?.kind === 'sse' ? t.url : undefined;
    const fwd = await startForwarder(sseUrl ?? o.httpUrl, headers, sseUrl !== undefined);
    try {
      const env = allowedEnv({
        ...(tiktokenCache ? { TIKTOKEN_CACHE_DIR: tiktokenCache } : {}),
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
        PYTHONWARNINGS: 'ignore',
      });
      o.log?.(`live: LAP: ${version ?? argv[0]} lint --mcp-url ${fwd.url} --json (loopback forwarder to the proxy)`);
      const res = await runLap(argv, fwd.url, o.timeoutMs ?? 120_000, env, secrets);
      if (!res.ok) return { executed: false, skip_reason: `lap failed: ${res.error}` };
      const r = parseLapText(res.stdout, 'from `lap lint`', o.inHouseMenuTokens);
      if (r.executed && version && r.version === undefined) r.version = version;
      return r;
    } finally {
      await fwd.close();
    }
  } catch (e) {
    return { executed: false, skip_reason: `LAP step failed: ${redactText((e as Error).message.split('\n')[0])}` };
  }
}
