/**
 * Token-counting worker (loaded by worker.mjs). Protocol, one message per job, answered in order:
 *   in:  { id, tokenizers: string[], texts: string[], scope } (a new scope resets the counting memo)
 *   out: { id, counts: Uint32Array[] } (per tokenizer, aligned with texts; buffers transferred)
 *      | { id, error: { name, message, exitCode? } } (UserError keeps its class on the main side)
 * Counts come from the same chunk-memo counter over getTokenizer(name) as on the main thread
 * (worker_count.ts), so they are identical; the memo lives as long as the worker.
 */
import { parentPort } from 'node:worker_threads';
import { getTokenizer } from './tokenizer.ts';
import { createChunkCounter, type ChunkCounter } from './chunk_memo.ts';
import { UserError } from '../types.ts';
import type { CountReply, CountRequest } from './worker_client.ts';

if (!parentPort) throw new Error('worker_body.ts must run in a worker thread');
const port = parentPort;
const counters = new Map<string, ChunkCounter>();
let lastScope: string | undefined;

// test hook (test/hostile/tokenizer.test.ts): the worker dies with this exit code on its first job
const DIE_WITH = process.env.MCPGAUGE_TEST_WORKER_EXIT;

port.on('message', (msg: CountRequest) => {
  if (DIE_WITH) process.exit(Number(DIE_WITH));
  let reply: CountReply;
  try {
    if (msg.scope !== lastScope) for (const c of counters.values()) c.reset();
    lastScope = msg.scope;
    const all = msg.tokenizers.map((name) => {
      let tk = counters.get(name);
      if (!tk) counters.set(name, (tk = createChunkCounter(getTokenizer(name))));
      const counts = new Uint32Array(msg.texts.length);
      for (let i = 0; i < msg.texts.length; i++) counts[i] = tk.count(msg.texts[i]);
      return counts;
    });
    reply = { id: msg.id, counts: all };
    port.postMessage(
      reply,
      all.map((c) => c.buffer),
    );
    return;
  } catch (e) {
    const err = e as Error;
    reply = {
      id: msg.id,
      error: {
        name: err?.name ?? 'Error',
        message: err?.message ?? String(e),
        ...(e instanceof UserError ? { exitCode: e.exitCode } : {}),
      },
    };
  }
  port.postMessage(reply);
});
