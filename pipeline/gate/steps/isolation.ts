/**
 * 8. isolation: two sessions (an HTTP-served proxy) or one session (stdio-served) send slow calls
 * and echoes with distinct values interleaved; every answer is checked against its own request.
 */
import { resultText } from '../../mcp/client.ts';
import type { ProxySession } from '../../adapter/index.ts';
import { describeOutcome, mainSession, nonce, outcomeOf } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

interface Req {
  session: number;
  tool: string;
  args: Record<string, unknown>;
  expect: string;
}

export const step: StepDef = {
  meta: { name: 'isolation', title: 'each session gets its own results' },
  async run(ctx) {
    const t = ctx.cfg.timeouts;
    const server = upstreamName('main');
    const sessions: ProxySession[] = ctx.proxy.served === 'http' ? [await ctx.openSession(), await ctx.openSession()] : [mainSession(ctx)];
    // identical operations in every session, so request ids line up across sessions
    for (const s of sessions) {
      await s.resolve(`${server}:slow`);
      await s.resolve(`${server}:echo`);
    }
    const reqs: Req[] = [];
    let ms = 150 + Math.floor(Math.random() * 50);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < sessions.length; i++) {
        ms += 37;
        reqs.push({ session: i, tool: `${server}:slow`, args: { ms }, expect: `"slept_ms":${ms}` });
        const n = nonce(`s${i}r${round}`);
        reqs.push({ session: i, tool: `${server}:echo`, args: { input: n }, expect: n });
      }
    }
    // per session in a fixed order, sessions interleaved
    const outs = await Promise.all(
      reqs.map((r) => outcomeOf(sessions[r.session].call(r.tool, r.args, { timeoutMs: t.step_ms }), t.step_ms + 500)),
    );
    const wrong: string[] = [];
    outs.forEach((o, i) => {
      const r = reqs[i];
      if (o.kind !== 'ok') wrong.push(`session ${r.session + 1} ${r.tool} ${JSON.stringify(r.args)}: ${describeOutcome(o)}`);
      else if (!resultText(o.result).includes(r.expect))
        wrong.push(
          `session ${r.session + 1} ${r.tool} ${JSON.stringify(r.args)} got someone else's answer: ${resultText(o.result).slice(0, 120)}`,
        );
    });
    const evidence = { sessions: sessions.length, calls: reqs.length };
    if (wrong.length)
      return {
        status: 'fail',
        reason: `${wrong.length} of ${reqs.length} interleaved calls did not get their own answer: ${wrong.slice(0, 3).join('; ')}`,
        evidence,
      };
    return {
      status: 'pass',
      reason: `${reqs.length} interleaved calls over ${sessions.length} session(s)${sessions.length === 1 ? ' (stdio-served proxy: concurrent calls of one session)' : ''} each got their own answer`,
      evidence,
    };
  },
};
