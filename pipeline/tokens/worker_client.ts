/**
 * Main-thread side of the token-counting worker: `startCountWorker()` spawns one worker thread
 * (pipeline/tokens/worker.mjs), `count(tokenizer, texts)` posts a job and resolves with one exact
 * count per text (`countMany(tokenizers, texts)`: one job, one copy of the texts, counts per tokenizer) (the worker uses the same tokenizer as the main thread). Jobs run in
 * the order posted. The texts are copied at post time, so the caller may drop its own copy.
 *
 * Errors: a job that throws in the worker rejects with an error of the same class and message as
 * the main thread would have thrown (UserError stays a UserError, so the CLI prints the same one
 * line); a worker crash or exit rejects every pending job with its reason (the exit code, the
 * error), and the worker is terminated; terminating keeps the process alive until the thread is
 * gone, so a caller never ends in Node's silent exit 13.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DIST_DIR } from '../constants.ts';
import { UserError } from '../types.ts';

export interface CountRequest {
  id: number;
  /** every text is counted under each of these, in order */
  tokenizers: string[];
  texts: string[];
  /** texts of one scope share the worker's counting memo; a new scope resets it */
  scope: string;
}

export type CountReply =
  | { id: number; counts: Uint32Array[] }
  | { id: number; error: { name: string; message: string; exitCode?: number } };

export interface CountWorker {
  count(tokenizer: string, texts: string[], scope?: string): Promise<number[]>;
  /** one job counting the texts under several tokenizers (one copy of the texts); result per tokenizer */
  countMany(tokenizers: string[], texts: string[], scope?: string): Promise<number[][]>;
  /** jobs posted and not answered yet */
  pending(): number;
  /** terminate the thread (idempotent); pending jobs reject */
  close(): Promise<void>;
}

// compiled (dist/): the body is plain JS; sources (tests through tsx): worker.mjs registers tsx first;
// from a light bundle (one .cjs file, bench's: scripts/lib/bundle.mjs) the CLI bundle's entry of it
const WORKER_URL = import.meta.url.endsWith('.cjs')
  ? pathToFileURL(join(DIST_DIR, 'bundle', 'worker_body.js'))
  : new URL(import.meta.url.endsWith('.js') ? './worker_body.js' : './worker.mjs', import.meta.url);

function rebuildError(e: { name: string; message: string; exitCode?: number }): Error {
  if (e.name === 'UserError') return new UserError(e.message, e.exitCode);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

export function startCountWorker(): CountWorker {
  // execArgv: [] so the worker does not also preload tsx through an inherited --import (it registers itself)
  const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  const pending = new Map<number, { resolve: (v: number[][]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failure: Error | null = null;
  let closed = false;

  // Terminating: the thread is kept referenced until it has exited, else a caller awaiting
  // close() (or the error it reports after it) would leave the event loop empty and Node would
  // exit 13 ("unsettled top-level await") with no message.
  let terminating: Promise<number> | null = null;
  const terminate = () => {
    if (!terminating) {
      worker.ref();
      terminating = worker.terminate();
    }
    return terminating;
  };
  const failAll = (e: Error) => {
    if (!failure) failure = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    if (!closed) {
      closed = true;
      void terminate();
    }
  };

  worker.on('message', (msg: CountReply) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if ('error' in msg) {
      const e = rebuildError(msg.error);
      p.reject(e);
      failAll(e);
    } else {
      p.resolve(msg.counts.map((c) => Array.from(c)));
    }
  });
  worker.on('error', (e: Error) => failAll(new Error(`token-counting worker failed: ${e instanceof Error ? e.message : String(e)}`)));
  worker.on('messageerror', (e: Error) => failAll(new Error(`token-counting worker sent an unreadable reply: ${e.message}`)));
  worker.on('exit', (code) => {
    if (pending.size > 0) failAll(new Error(`token-counting worker exited (code ${code}) with ${pending.size} job(s) pending`));
    closed = true;
  });
  // an idle worker must not keep the process alive
  worker.unref();

  return {
    count(tokenizer, texts, scope = '') {
      return this.countMany([tokenizer], texts, scope).then((c) => c[0]);
    },
    countMany(tokenizers, texts, scope = '') {
      if (failure) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('token-counting worker is closed'));
      const id = nextId++;
      const req: CountRequest = { id, tokenizers, texts, scope };
      return new Promise<number[][]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage(req);
      }).finally(() => {
        if (pending.size === 0 && !terminating) worker.unref();
      });
    },
    pending: () => pending.size,
    async close() {
      if (closed) {
        if (terminating) await terminating;
        return;
      }
      closed = true;
      const t = terminate();
      for (const p of pending.values()) p.reject(new Error('token-counting worker closed with jobs pending'));
      pending.clear();
      await t;
    },
  };
}
