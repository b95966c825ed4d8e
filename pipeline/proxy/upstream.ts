/**
 * One upstream MCP server behind the proxy: connection lifecycle, tool list, calls with a
 * deadline, crash detection and restart with exponential backoff.
 *
 * States: connecting -> connected -> (connection lost) backoff -> connecting -> ...
 * `failed` only when restart.max_attempts is set and exhausted; `closed` after close().
 */
import {
  MessageTooLarge,
  connectMcp,
  describeTarget,
  type CallResult,
  type McpConnection,
  type ProgressParams,
  type ProtocolChoice,
  type WireTool,
} from '../mcp/client.ts';
import { canonicalJson } from '../corpus/canonical.ts';
import { targetOf, type RestartPolicy, type UpstreamConfig } from './config.ts';
import type { SabotageSwitch } from './sabotage.ts';
import { MODERN_REVISION } from '../mcp/protocol.ts';

/** the handle `client.listen()` resolves with (2026-07-28 subscriptions/listen) */
type ListenHandle = { close(): Promise<void>; readonly closed: Promise<'local' | 'graceful' | 'remote'> };

export type UpstreamState = 'connecting' | 'connected' | 'backoff' | 'failed' | 'closed';

/** What `upstream_servers` and `upstreamStatus()` report for one upstream (key names are stable). */
export interface UpstreamStatus {
  name: string;
  transport: 'stdio' | 'streamable-http' | 'sse';
  state: UpstreamState;
  connected: boolean;
  tool_count: number;
  /** times the upstream was started again after the first start (automatic or requested) */
  restarts: number;
  /** stdio child pid while connected */
  pid: number | null;
  protocol_version: string | null;
  last_error: string | null;
  last_error_at: string | null;
  connected_since: string | null;
  /** ms until the next reconnect attempt while in backoff */
  next_retry_in_ms: number | null;
}

export interface UpstreamOptions {
  protocol: ProtocolChoice;
  connectTimeoutMs: number;
  healthIntervalMs: number;
  healthTimeoutMs: number;
  restart: RestartPolicy;
  /** max_upstream_list_bytes: largest tools/list (all pages) and largest single message read */
  maxListBytes: number;
  log: (msg: string) => void;
  /** called whenever the usable tool list of this upstream changes (connected, lost, re-listed) */
  onToolsChanged: () => void;
  /** test-only sabotage switches (sabotage.ts); empty in normal use */
  sabotage?: ReadonlySet<SabotageSwitch>;
}

/** What a caller passes along with one call: its `_meta`, its cancellation, its progress sink. */
export interface CallContext {
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
  /** set when the caller sent a progress token: the upstream's progress goes there */
  progress?: (p: ProgressParams) => void;
}

/**
 * A call that keeps reporting progress gets its call timeout restarted by each notification
 * (2025-11-25 basic/lifecycle#timeouts: a receiver MAY reset the clock on progress and SHOULD
 * still enforce a maximum), up to this many call timeouts in all.
 */
export const PROGRESS_MAX_TIMEOUTS = 10;

class CallFailure extends Error {}

/** the longest a caller waits for the re-list of a list past its ttlMs (then the list at hand is served) */
export const REVALIDATE_WAIT_MS = 1000;

export class Upstream {
  readonly name: string;
  readonly cfg: UpstreamConfig;
  private readonly opts: UpstreamOptions;
  private conn: McpConnection | undefined;
  /** bumped whenever the current connection is abandoned; stale callbacks compare against it */
  private gen = 0;
  private _state: UpstreamState = 'connecting';
  private _tools: WireTool[] = [];
  private _restarts = 0;
  private attempts = 0;
  /** connection attempts that failed, ever (waiting callers give up after the next one) */
  private failedAttempts = 0;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  private connectedAt: number | null = null;
  private nextRetryAt: number | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private healthRunning = false;
  private closed = false;
  private waiters = new Set<() => void>();
  /** rejecters of calls in flight on the current connection */
  private inflight = new Set<(e: Error) => void>();
  private connecting: Promise<boolean> | null = null;
  /** a live connection was lost at least once */
  private lostOnce = false;
  /** when the current tool list was received, and the ttlMs it came with (2026-07-28; undefined: no cache hint) */
  private listedAt = 0;
  private ttlMs: number | undefined;
  /** a re-list because the list's ttlMs passed, shared by every caller waiting for it */
  private revalidating: Promise<void> | null = null;
  private revalidatingSince = 0;
  /** the open subscriptions/listen stream of the current connection (2026-07-28) */
  private sub: ListenHandle | undefined;
  /** times the listen stream of the current connection ended and was opened again */
  private relistens = 0;

  constructor(cfg: UpstreamConfig, opts: UpstreamOptions) {
    this.name = cfg.name;
    this.cfg = cfg;
    this.opts = opts;
  }

  get state(): UpstreamState {
    return this._state;
  }
  /** tools of the live connection ([] while not connected) */
  get tools(): WireTool[] {
    return this._state === 'connected' ? this._tools : [];
  }
  get pid(): number | undefined {
    return this._state === 'connected' ? this.conn?.pid : undefined;
  }

  /** First connection attempt; resolves when connected or when the first attempt failed (a retry is then scheduled). */
  async start(): Promise<void> {
    await this.connectNow();
  }

  status(): UpstreamStatus {
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return {
      name: this.name,
      transport: 'command' in this.cfg ? 'stdio' : this.cfg.transport,
      state: this._state,
      connected: this._state === 'connected',
      tool_count: this.tools.length,
      restarts: this._restarts,
      pid: this.pid ?? null,
      protocol_version: this._state === 'connected' ? (this.conn?.protocolVersion ?? null) : null,
      last_error: this.lastError,
      last_error_at: iso(this.lastErrorAt),
      connected_since: this._state === 'connected' ? iso(this.connectedAt) : null,
      next_retry_in_ms: this._state === 'backoff' && this.nextRetryAt !== null ? Math.max(0, this.nextRetryAt - Date.now()) : null,
    };
  }

  /** Drop the current connection (killing a stdio child) and connect again now. */
  async restart(reason = 'restart requested'): Promise<UpstreamStatus> {
    if (this.closed) throw new Error(`upstream '${this.name}' is closed`);
    if (this.opts.sabotage?.has('no-reconnect') && this.lostOnce) return this.status();
    this.opts.log(`upstream '${this.name}': ${reason}`);
    this.abandon(reason);
    this._restarts++;
    this.attempts = 0;
    this.opts.onToolsChanged();
    // An attempt already under way belongs to the abandoned generation: let it wind down first.
    if (this.connecting) await this.connecting.catch(() => false);
    await this.connectNow();
    return this.status();
  }

  /**
   * Call a tool with a deadline covering everything: waiting for a reconnecting upstream,
   * the call itself, a connection lost mid-call. Throws CallFailure-style Errors with a
   * one-line message; upstream tool errors (isError results) are returned as they are.
   */
  async callTool(tool: string, args: Record<string, unknown>, timeoutMs: number, ctx: CallContext = {}): Promise<CallResult> {
    const started = Date.now();
    const deadline = started + timeoutMs;
    if (this._state !== 'connected') {
      await this.waitUntilSettled(deadline);
      const now = this.state;
      if (now !== 'connected') {
        const why = this.lastError ? `; last error: ${this.lastError}` : '';
        throw new CallFailure(
          `upstream '${this.name}' is not connected (state: ${now}${why}); waited ${Date.now() - started} ms for a reconnect (call timeout ${timeoutMs} ms)`,
        );
      }
    }
    if (!this._tools.some((t) => t.name === tool) && this.expired) await this.revalidate();
    if (!this._tools.some((t) => t.name === tool)) {
      throw new CallFailure(`unknown tool '${this.name}:${tool}': upstream '${this.name}' has no tool named '${tool}'`);
    }
    const conn = this.conn!;
    const sabotage = this.opts.sabotage;
    const noDeadline = sabotage?.has('no-timeout') || (sabotage?.has('net-no-deadline') && !('command' in this.cfg));
    const remaining = noDeadline ? 24 * 3600_000 : Math.max(1, deadline - Date.now());
    // the caller asked for progress: ask the upstream (the SDK puts its own token on the request)
    const progressSink = sabotage?.has('drop-progress') ? undefined : ctx.progress;
    const maxTotal = noDeadline ? remaining : PROGRESS_MAX_TIMEOUTS * timeoutMs;
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let rejectDead: ((e: Error) => void) | undefined;
    let onCancel: (() => void) | undefined;
    let onTimeout: (() => void) | undefined;
    let lastProgress: number | undefined;
    const callerSignal = sabotage?.has('swallow-cancel') || (sabotage?.has('progress-no-cancel') && ctx.progress) ? undefined : ctx.signal;
    const guards = new Promise<never>((_, reject) => {
      onTimeout = () => {
        const total = Date.now() - started;
        if (lastProgress !== undefined && total >= maxTotal) {
          reject(
            new CallFailure(
              `upstream '${this.name}' was still reporting progress on tools/call '${tool}' after ${total} ms, the most a call may take (${PROGRESS_MAX_TIMEOUTS} × the ${timeoutMs} ms call timeout)`,
            ),
          );
        } else if (lastProgress !== undefined) {
          reject(
            new CallFailure(
              `upstream '${this.name}' did not answer tools/call '${tool}' within the ${timeoutMs} ms call timeout after its last progress notification (${total} ms in all)`,
            ),
          );
        } else {
          reject(new CallFailure(`upstream '${this.name}' did not answer tools/call '${tool}' within the ${timeoutMs} ms call timeout`));
        }
      };
      timer = setTimeout(onTimeout, remaining);
      rejectDead = (e) => reject(e);
      this.inflight.add(rejectDead);
      // The caller gave up (notifications/cancelled): abort the upstream request, which makes the
      // SDK client send notifications/cancelled upstream.
      onCancel = () => reject(new CallFailure(`call of '${tool}' cancelled by the client`));
      if (callerSignal?.aborted) onCancel();
      else callerSignal?.addEventListener('abort', onCancel, { once: true });
    });
    // each progress goes back to the caller and restarts the call timeout, up to maxTotal in all
    const onprogress = progressSink
      ? (p: ProgressParams) => {
          lastProgress = Date.now();
          if (!sabotage?.has('progress-no-restart')) {
            clearTimeout(timer);
            timer = setTimeout(onTimeout!, Math.max(1, Math.min(timeoutMs, started + maxTotal - lastProgress)));
          }
          progressSink(p);
        }
      : undefined;
    const meta = sabotage?.has('drop-meta') ? undefined : ctx.meta;
    // The SDK's own request timeout is a backstop a little after ours, so our message wins.
    const call = conn.callTool(tool, args, {
      timeoutMs: remaining + 1000,
      signal: ac.signal,
      meta,
      onprogress,
      maxTotalTimeoutMs: onprogress ? maxTotal + 1000 : undefined,
    });
    try {
      return await Promise.race([call, guards]);
    } catch (e) {
      ac.abort();
      if (e instanceof CallFailure) throw e;
      const err = e as Error & { code?: unknown };
      if (typeof err.code === 'number') {
        // A JSON-RPC error answered by the upstream (unknown tool, invalid params, internal error).
        throw new CallFailure(`upstream '${this.name}' rejected tools/call '${tool}': ${oneLine(err.message)} (code ${err.code})`);
      }
      // Transport-level failure (connection refused, closed, send failed): check the upstream now.
      if (this.conn === conn) void this.healthCheck();
      throw new CallFailure(`upstream '${this.name}' failed during tools/call '${tool}': ${oneLine(err.message)}`);
    } finally {
      clearTimeout(timer);
      if (onCancel) callerSignal?.removeEventListener('abort', onCancel);
      if (rejectDead) this.inflight.delete(rejectDead);
      call.catch(() => {});
      guards.catch(() => {});
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abandon('proxy shutting down');
    this._state = 'closed';
    this.wake();
  }

  // ---------------------------------------------------------------------------------------

  private connectNow(): Promise<boolean> {
    if (this.connecting) return this.connecting;
    const p = this.connectOnce().finally(() => {
      if (this.connecting === p) this.connecting = null;
    });
    this.connecting = p;
    return p;
  }

  private async connectOnce(): Promise<boolean> {
    if (this.closed) return false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = null;
    const gen = ++this.gen;
    this._state = 'connecting';
    let conn: McpConnection | undefined;
    const target = targetOf(this.cfg);
    // a boot can take seconds (npx, a cold python): one line when it starts and one when it is ready
    const t0 = Date.now();
    this.opts.log(
      `upstream '${this.name}': starting (${describeTarget(target)}${this.failedAttempts ? `, attempt ${this.failedAttempts + 1}` : ''})`,
    );
    try {
      conn = await connectMcp(target, {
        protocol: this.cfg.protocol ?? this.opts.protocol,
        timeoutMs: this.opts.connectTimeoutMs,
        clientName: 'mcpgauge-proxy',
        maxMessageBytes: this.opts.maxListBytes,
      });
      if (gen !== this.gen || this.closed) {
        await conn.close();
        return false;
      }
      const c = conn;
      c.client.onclose = () => {
        const big = c.limitExceeded();
        if (big) return this.lost(gen, tooLargeReason(big), { tooLarge: true });
        const tail = c.stderrText().trim().split('\n').slice(-2).join(' | ');
        this.lost(
          gen,
          `connection closed${c.pid ? ` (pid ${c.pid} exited)` : ''}${tail ? ` (stderr: ${oneLine(tail).slice(0, 300)})` : ''}`,
        );
      };
      c.client.onerror = () => {
        /* transport noise; a real loss arrives through onclose or a failed health check */
      };
      try {
        c.client.setNotificationHandler('notifications/tools/list_changed', () => {
          if (this.opts.sabotage?.has('stale-index')) return;
          void this.refreshTools(gen);
        });
      } catch {
        /* era without list_changed: the periodic health check re-lists instead */
      }
      const tools = await c.listAllTools({ timeoutMs: this.opts.connectTimeoutMs });
      if (gen !== this.gen || this.closed) {
        await c.close();
        return false;
      }
      this.conn = c;
      this._tools = this.dedupe(tools);
      this.noteListed(c);
      this._state = 'connected';
      this.connectedAt = Date.now();
      this.relistens = 0;
      this.opts.log(
        `upstream '${this.name}' connected (${describeTarget(target)}${c.pid ? `, pid ${c.pid}` : ''}, protocol ${c.protocolVersion ?? '?'}, ${this._tools.length} tools): ready in ${Date.now() - t0} ms`,
      );
      this.scheduleHealth(gen);
      this.listen(gen, c);
      this.opts.onToolsChanged();
      this.wake();
      return true;
    } catch (e) {
      if (conn) await conn.close();
      if (gen !== this.gen || this.closed) return false;
      const big = e instanceof MessageTooLarge ? e : conn?.limitExceeded();
      this.setError(big ? tooLargeReason(big) : oneLine((e as Error).message));
      this.failedAttempts++;
      this.opts.log(`upstream '${this.name}' failed to connect after ${Date.now() - t0} ms: ${this.lastError}`);
      this.scheduleRetry();
      return false;
    }
  }

  /** The current connection is gone (child exit, transport close, failed health check). */
  private lost(gen: number, reason: string, why: { tooLarge?: boolean } = {}): void {
    if (gen !== this.gen || this.closed) return;
    this.setError(reason);
    this.opts.log(`upstream '${this.name}' lost: ${reason}`);
    // an upstream that sends too much is not a healthy one, however long it was connected: its
    // backoff keeps growing (to restart.max_ms) instead of starting over
    const stable = !why.tooLarge && this.connectedAt !== null && Date.now() - this.connectedAt >= this.opts.restart.stable_ms;
    if (stable) this.attempts = 0;
    // lost before it ever connected (e.g. cut off mid tools/list): a failed attempt, so callers
    // waiting for it get this error now instead of at their deadline
    if (this._state === 'connecting') this.failedAttempts++;
    this.abandon(reason);
    this._restarts++;
    this.lostOnce = true;
    this.opts.onToolsChanged();
    const s = this.opts.sabotage;
    if (s?.has('no-reconnect') || s?.has('manual-restart')) {
      this._state = 'backoff';
      this.wake();
      return;
    }
    this.scheduleRetry();
  }

  /** Invalidate the current connection: fail calls in flight, close it (kills a stdio child). */
  private abandon(reason: string): void {
    this.gen++;
    clearTimeout(this.healthTimer);
    clearTimeout(this.retryTimer);
    this.healthTimer = undefined;
    this.retryTimer = undefined;
    const conn = this.conn;
    this.conn = undefined;
    const sub = this.sub;
    this.sub = undefined;
    if (sub) void sub.close().catch(() => {});
    this._tools = [];
    this.connectedAt = null;
    if (this._state === 'connected') this._state = 'backoff';
    const err = new CallFailure(`upstream '${this.name}' connection lost during the call: ${reason}`);
    for (const rej of [...this.inflight]) rej(err);
    this.inflight.clear();
    if (conn) void conn.close().catch(() => {});
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    this.attempts++;
    const r = this.opts.restart;
    if (r.max_attempts > 0 && this.attempts > r.max_attempts) {
      this._state = 'failed';
      this.opts.log(`upstream '${this.name}' failed: giving up after ${r.max_attempts} attempts`);
      this.wake();
      return;
    }
    const delay = backoffDelay(r, this.attempts);
    this._state = 'backoff';
    this.nextRetryAt = Date.now() + delay;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connectNow();
    }, delay);
    this.retryTimer.unref();
    this.wake();
  }

  private scheduleHealth(gen: number): void {
    if (this.opts.healthIntervalMs <= 0) return;
    clearTimeout(this.healthTimer);
    this.healthTimer = setTimeout(() => {
      void this.healthCheck().finally(() => {
        if (gen === this.gen && this._state === 'connected') this.scheduleHealth(gen);
      });
    }, this.opts.healthIntervalMs);
    this.healthTimer.unref();
  }

  /** tools/list with a deadline: refreshes the tool list, or declares the connection lost. */
  private async healthCheck(): Promise<void> {
    if (this.healthRunning || this._state !== 'connected' || !this.conn) return;
    this.healthRunning = true;
    const gen = this.gen;
    const conn = this.conn;
    let timer: NodeJS.Timeout | undefined;
    try {
      const tools = await Promise.race([
        conn.listAllTools({ timeoutMs: this.opts.healthTimeoutMs + 1000 }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer to tools/list within ${this.opts.healthTimeoutMs} ms`)),
            this.opts.healthTimeoutMs,
          );
        }),
      ]);
      this.applyTools(gen, tools);
      if (gen === this.gen) this.noteListed(conn);
    } catch (e) {
      const big = conn.limitExceeded();
      if (big) this.lost(gen, tooLargeReason(big), { tooLarge: true });
      else this.lost(gen, `health check failed: ${oneLine((e as Error).message)}`);
    } finally {
      clearTimeout(timer);
      this.healthRunning = false;
    }
  }

  private async refreshTools(gen: number): Promise<void> {
    const conn = this.conn;
    if (gen !== this.gen || !conn) return;
    try {
      this.applyTools(gen, await conn.listAllTools({ timeoutMs: this.opts.healthTimeoutMs }));
      if (gen === this.gen) this.noteListed(conn);
    } catch (e) {
      this.opts.log(`upstream '${this.name}': re-listing tools after list_changed failed: ${oneLine((e as Error).message)}`);
    }
  }

  private applyTools(gen: number, tools: WireTool[]): void {
    if (gen !== this.gen || this._state !== 'connected') return;
    const next = this.dedupe(tools);
    if (canonicalJson(next) === canonicalJson(this._tools)) return;
    // test-only: the index keeps the list of the connection's start
    if (this.opts.sabotage?.has('stale-index')) return;
    this._tools = next;
    this.opts.log(`upstream '${this.name}': tool list changed (${next.length} tools)`);
    this.opts.onToolsChanged();
  }

  /** The list just came from `conn`: note when, and for how long it says it stays fresh. */
  private noteListed(conn: McpConnection): void {
    this.listedAt = Date.now();
    this.ttlMs = conn.lastListHint()?.ttlMs;
  }

  /**
   * Whether the tool list is past its `ttlMs` (2026-07-28: fresh while now < received + ttlMs;
   * 0 = stale at once). A list without a cache hint (2025-11-25) never expires here: its changes
   * come through list_changed and the health check.
   */
  get expired(): boolean {
    if (this._state !== 'connected' || this.ttlMs === undefined || this.opts.sabotage?.has('stale-index')) return false;
    return Date.now() >= this.listedAt + this.ttlMs;
  }

  /**
   * Re-list when the list is past its ttlMs, before it is served again: one re-list shared by
   * every caller, waited for at most REVALIDATE_WAIT_MS (then the list at hand is served and the
   * re-list goes on); a re-list already older than that is not waited for again, so an upstream
   * whose tools/list hangs slows no caller for long (the health check then declares it lost).
   */
  async revalidate(): Promise<void> {
    if (!this.expired) return;
    const gen = this.gen;
    if (!this.revalidating) {
      this.revalidatingSince = Date.now();
      this.revalidating = this.refreshTools(gen).finally(() => {
        this.revalidating = null;
      });
    }
    const wait = REVALIDATE_WAIT_MS - (Date.now() - this.revalidatingSince);
    if (wait <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.revalidating, new Promise<void>((r) => (timer = setTimeout(r, wait)))]);
    clearTimeout(timer);
  }

  /**
   * 2026-07-28 sends list changes only on a `subscriptions/listen` stream: open one (toolsListChanged)
   * when the upstream declares `tools.listChanged`; its notifications reach the list_changed handler.
   * A stream that ends while the connection lives is re-listed and opened again with the restart backoff.
   */
  private listen(gen: number, c: McpConnection): void {
    if (this.opts.sabotage?.has('stale-index') || c.protocolVersion !== MODERN_REVISION) return;
    const caps = c.client.getServerCapabilities() as { tools?: { listChanged?: unknown } } | undefined;
    if (caps?.tools?.listChanged !== true) return;
    const client = c.client as unknown as { listen(f: { toolsListChanged: boolean }, o: { timeout: number }): Promise<ListenHandle> };
    client.listen({ toolsListChanged: true }, { timeout: this.opts.connectTimeoutMs }).then(
      (sub) => {
        if (gen !== this.gen || this.closed) return void sub.close().catch(() => {});
        this.sub = sub;
        this.opts.log(`upstream '${this.name}': listening for tool list changes (subscriptions/listen)`);
        void sub.closed.then((why) => {
          if (gen !== this.gen || this.closed || why === 'local') return;
          const delay = backoffDelay(this.opts.restart, ++this.relistens);
          this.opts.log(
            `upstream '${this.name}': the subscriptions/listen stream ended (${why}); re-listing, listening again in ${delay} ms`,
          );
          void this.refreshTools(gen);
          setTimeout(() => {
            if (gen === this.gen && !this.closed) this.listen(gen, c);
          }, delay).unref();
        });
      },
      (e: Error) => {
        if (gen === this.gen)
          this.opts.log(`upstream '${this.name}': subscriptions/listen failed (${oneLine(e.message)}); the health check re-lists instead`);
      },
    );
  }

  private dedupe(tools: WireTool[]): WireTool[] {
    const seen = new Set<string>();
    const out: WireTool[] = [];
    for (const t of tools) {
      if (typeof t?.name !== 'string' || t.name === '') continue;
      if (seen.has(t.name)) {
        this.opts.log(`upstream '${this.name}': duplicate tool name '${t.name}' ignored`);
        continue;
      }
      seen.add(t.name);
      out.push(stripUndefined(t));
    }
    return out;
  }

  private setError(msg: string): void {
    this.lastError = msg;
    this.lastErrorAt = Date.now();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /**
   * Wait until connected, failed or closed, until the next connection attempt has failed
   * (no point in waiting for later ones: the caller gets that attempt's error), or until the deadline.
   */
  private waitUntilSettled(deadline: number): Promise<void> {
    const failuresAtStart = this.failedAttempts;
    return new Promise((resolve) => {
      const done = () => {
        if (
          this._state === 'connected' ||
          this._state === 'failed' ||
          this._state === 'closed' ||
          this.failedAttempts > failuresAtStart ||
          Date.now() >= deadline
        ) {
          clearTimeout(t);
          this.waiters.delete(done);
          resolve();
        }
      };
      const t = setTimeout(
        () => {
          this.waiters.delete(done);
          resolve();
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiters.add(done);
      done();
    });
  }
}

/**
 * Delay before reconnect attempt `attempt` (1-based): exponential from `initial_ms` by `factor`,
 * capped at `max_ms`, with equal jitter (a uniform draw in [d/2, d]) so that many upstreams (or many
 * proxies) lost at once do not retry in lock step; never below 50 ms, so a lost upstream cannot
 * make the proxy spin.
 */
export function backoffDelay(r: RestartPolicy, attempt: number, random: () => number = Math.random): number {
  const d = Math.min(r.max_ms, r.initial_ms * r.factor ** Math.max(0, attempt - 1));
  return Math.max(50, Math.round(d / 2 + random() * (d / 2)));
}

export function isCallFailure(e: unknown): e is Error {
  return e instanceof CallFailure;
}

/** The one line for an upstream past max_upstream_list_bytes: what, the cap, the bytes seen. */
function tooLargeReason(e: MessageTooLarge): string {
  return `${e.what} from the upstream exceeds max_upstream_list_bytes (${e.limit} bytes; ${e.seen} bytes read so far, reading stopped); retrying with backoff`;
}

function oneLine(s: string): string {
  return String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** JSON round trip: drops undefined values so canonicalJson never sees them. */
function stripUndefined(t: WireTool): WireTool {
  return JSON.parse(JSON.stringify(t)) as WireTool;
}
