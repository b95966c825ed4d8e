/**
 * outcomeOf's verdict is the time the answer was seen, not which of two promises won a race: on a
 * loaded machine the deadline's timer fires late and an answer that came after the deadline can
 * win the race (a sabotaged proxy's slow_close error at ~6.0x s against a 6 s deadline was once
 * credited as "an error in time"). No process: the late answer is made by blocking the event loop
 * past the deadline and resolving the call before the timer phase runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeOutcome, outcomeOf } from '../../pipeline/gate/calls.ts';

/** the call's result type, without importing the MCP client (a unit file imports no launcher) */
type CallResult = Awaited<Parameters<typeof outcomeOf>[0]>;

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* the event loop is stuck, as under load */
  }
}

const RESULT = { content: [{ type: 'text', text: 'boom' }], isError: true } as unknown as CallResult;

test('an answer seen after the deadline is no answer, even when it wins the race against a late timer', async () => {
  let answer!: (r: CallResult) => void;
  const o = outcomeOf(new Promise<CallResult>((r) => (answer = r)), 20);
  blockFor(60); // the 20 ms timer is due, but has not run
  answer(RESULT); // settles before the timer phase: the race goes to the answer
  const out = await o;
  assert.equal(out.kind, 'no_answer', describeOutcome(out));
  assert.match(describeOutcome(out), /^no answer within 20 ms \(a tool error after \d+ ms\)$/);
});

test('a rejection seen after the deadline is no answer too; one in time keeps its kind', async () => {
  let fail!: (e: Error) => void;
  const late = outcomeOf(new Promise<CallResult>((_, j) => (fail = j)), 20);
  blockFor(60);
  fail(Object.assign(new Error('terminated'), { code: -32603 }));
  const out = await late;
  assert.equal(out.kind, 'no_answer', describeOutcome(out));
  assert.match(describeOutcome(out), /an error after \d+ ms: terminated/);

  const inTime = await outcomeOf(Promise.reject(Object.assign(new Error('bad'), { code: -32602 })), 1000);
  assert.equal(inTime.kind, 'rpc_error');
  const ok = await outcomeOf(Promise.resolve(RESULT), 1000);
  assert.equal(ok.kind, 'tool_error');
});
