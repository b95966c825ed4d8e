/**
 * Token-counting worker (loaded by worker.mjs). Protocol, one message per job, answered in order:
 *   in:  { id, tokenizer, texts: string[], scope } (a new scope resets the counting memo)
 *   out: { id, counts: Uint32Array } (aligned with texts; buffer transferred)
 *      | { id, error: { name, message, exitCode? } } (UserError keeps its class on the main side)
 * Counts come from the same chunk-memo counter over getTokenizer(name) as on the main thread
 * (worker_count.ts), so they are identical; the memo lives as long as the worker.
 */
import { parentPort } from 'node:worker_threads';
import { getTokenizer } from '../tokens/tokenizer.ts';
import { createChunkCounter, type ChunkCounter } from './worker_count.ts';
import { UserError } from '../types.ts';
import type { CountReply, CountRequest } from './worker_client.ts';

if (!parentPort) throw new Error('worker_body.ts must run in a worker thread');
const port = parentPort;
const counters = new Map<string, ChunkCounter>();
let lastScope: string | undefined;

port.on('message', (msg: CountRequest) => {
  let reply: CountReply;
  try {
    if (msg.scope !== lastScope) for (const c of counters.values()) c.reset();
    lastScope = msg.scope;
    let tk = counters.get(msg.tokenizer);
    if (!tk) counters.set(msg.tokenizer, (tk = createChunkCounter(getTokenizer(msg.tokenizer))));
    const counts = new Uint32Array(msg.texts.length);
    for (let i = 0; i < msg.texts.length; i++) counts[i] = tk.count(msg.texts[i]);
    reply = { id: msg.id, counts };
    port.postMessage(reply, [counts.buffer]);
    return;
  } catch (e) {
    const err = e as Error;
    reply = {
      id: msg.id,
      error: { name: err?.name ?? 'Error', message: err?.message ?? String(e), ...(e instanceof UserError ? { exitCode: e.exitCode } : {}) },
    };
  }
  port.postMessage(reply);
});
