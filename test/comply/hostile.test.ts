/**
 * Hostile servers: garbage on stdout, an endless line, silence, a close mid-stream, invalid
 * UTF-8, a 50 MB answer (stdio and HTTP), an SSE stream that never ends, an HTTP+SSE server
 * that never answers on its stream. The prober (run in
 * a child process) finishes, names the root cause, and its peak RSS stays under 300 MB.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from '../script-args.ts';

const dir = fileURLToPath(new URL('./hostile/', import.meta.url));
const CHILD = `${dir}probe-child.ts`;
const RSS_LIMIT_KB = 300 * 1024;

interface Out {
  ms: number;
  maxRssKb: number;
  runs: Array<{ revision: string; grade: string | null; failing: string[]; warnings: string[] }>;
  era: { choice: string; detected: string | null; reason: string };
  warnings: string[];
}

function probe(target: string[], timeoutMs = 1500, startupMs = 1500): Promise<Out> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...scriptArgs(CHILD), String(timeoutMs), String(startupMs), ...target], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    const kill = setTimeout(() => c.kill('SIGKILL'), 60_000);
    c.on('exit', (code) => {
      clearTimeout(kill);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Out);
      } catch {
        reject(new Error(`prober child exited ${code} without a report: ${err.slice(-400)}`));
      }
    });
  });
}

const text = (o: Out) => JSON.stringify(o);
const node = (f: string) => [process.execPath, `${dir}${f}`];

describe('hostile stdio servers', { concurrency: 2, timeout: 120_000 }, () => {
  const cases: Array<[string, string, RegExp]> = [
    ['garbage on stdout', 'garbage.mjs', /non-protocol stdout line.*Welcome to my server/],
    ['an endless line', 'endless-line.mjs', /longer than 8388608 bytes/],
    ['silence', 'silent.mjs', /no answer within 1500 ms/],
    ['close mid-stream', 'close-mid-stream.mjs', /server (already )?exited \(code 0\)/],
    ['invalid UTF-8', 'invalid-utf8.mjs', /invalid UTF-8 on stdout/],
    ['a 50 MB answer', 'huge-answer.mjs', /exceeded 8388608 bytes|longer than 8388608 bytes/],
  ];
  for (const [name, file, cause] of cases) {
    it(`${name}: finishes, names the root cause, stays under 300 MB`, async () => {
      const o = await probe(node(file));
      assert.match(text(o), cause);
      assert.ok(o.runs.length >= 1, 'a run was graded');
      for (const r of o.runs) assert.notEqual(r.grade, 'A', `a hostile server must not grade A: ${text(o).slice(0, 300)}`);
      assert.ok(o.maxRssKb < RSS_LIMIT_KB, `peak RSS ${Math.round(o.maxRssKb / 1024)} MB`);
    });
  }
});

describe('hostile HTTP servers', { concurrency: 2, timeout: 120_000 }, () => {
  const servers: ChildProcess[] = [];
  const urls: Record<string, string> = {};
  before(async () => {
    for (const f of ['endless-sse.mjs', 'huge-http.mjs', 'silent-sse-endpoint.mjs']) {
      const c = spawn(process.execPath, [`${dir}${f}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      servers.push(c);
      urls[f] = await new Promise<string>((resolve, reject) => {
        let e = '';
        c.stderr!.on('data', (d) => {
          e += d;
          const m = /port (\d+)/.exec(e);
          if (m) resolve(`http://127.0.0.1:${m[1]}/${f.includes('sse-endpoint') ? 'sse' : 'mcp'}`);
        });
        c.on('exit', () => reject(new Error(`${f} exited: ${e}`)));
      });
    }
  });
  after(async () => {
    await Promise.all(
      servers.map((c) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGTERM'))))),
    );
  });
  it('an SSE stream that never ends: each request times out, the run finishes', async () => {
    const o = await probe([urls['endless-sse.mjs']]);
    assert.match(text(o), /no complete answer within 1500 ms/);
    assert.ok(o.maxRssKb < RSS_LIMIT_KB, `peak RSS ${Math.round(o.maxRssKb / 1024)} MB`);
  });
  it('an HTTP+SSE server that acknowledges every POST and never answers on its stream: graded over the SSE wire, the run finishes', async () => {
    const o = await probe([urls['silent-sse-endpoint.mjs']]);
    assert.match(text(o), /deprecated HTTP\+SSE transport/);
    assert.match(text(o), /no answer on the SSE stream within 1500 ms/);
    for (const r of o.runs) assert.equal(r.grade, null, 'nothing answered: no grade');
    assert.ok(o.maxRssKb < RSS_LIMIT_KB, `peak RSS ${Math.round(o.maxRssKb / 1024)} MB`);
  });
  it('a 50 MB JSON answer is cut at 8 MiB and reported', async () => {
    const o = await probe([urls['huge-http.mjs']]);
    assert.match(text(o), /response body exceeds 8388608 bytes/);
    assert.ok(o.maxRssKb < RSS_LIMIT_KB, `peak RSS ${Math.round(o.maxRssKb / 1024)} MB`);
  });
});

/**
 * Root causes in seconds, with the default 15 s startup budget: a server whose answers carry
 * the id with another JSON type, one that echoes requests back, one that floods notifications,
 * one that exits right after initialize. Each is named in the run's warnings (or the era
 * reason), well before any timeout.
 */
describe('root causes named in seconds', { concurrency: 2, timeout: 120_000 }, () => {
  const mini = (mode: string) => [process.execPath, `${dir}mini-server.mjs`, mode];
  const fast = (o: Out, ms: number) => assert.ok(o.ms < ms, `took ${o.ms} ms`);
  it('ids answered with another JSON type: paired on the first exchange, lifecycle-id-match fails, the era reason says so', async () => {
    const o = await probe(mini('string-ids'), 10_000, 15_000);
    fast(o, 10_000);
    const r = o.runs[0];
    assert.ok(
      r.warnings.some((w) =>
        /^root cause: mismatched response ids: the request with id 990001 \(number\) was answered with id "990001" \(string\)/.test(w),
      ),
      text(o).slice(0, 600),
    );
    assert.ok(
      r.failing.some((f) => f.startsWith('lifecycle-id-match: initialize sent with id 1000, answered with id "1000"')),
      text(o).slice(0, 600),
    );
    assert.match(JSON.stringify(o.era), /answered with id \\"990001\\" for 990001.*fell back to 2025-11-25/);
    assert.notEqual(r.grade, 'A', 'a failing MUST caps the letter');
  });
  it('requests echoed back: named as echoes, the handshake fails at once', async () => {
    const o = await probe([process.execPath, `${dir}echo.mjs`], 10_000, 15_000);
    fast(o, 5_000);
    assert.match(text(o), /root cause: echoed requests: the server writes each request back/);
    assert.match(JSON.stringify(o.era), /wrote the request back.*fell back to 2025-11-25/);
    assert.equal(o.runs[0].grade, null, 'nothing was answered: no grade');
  });
  it('answers pretty-printed over several lines: each request ends as unframed when its answer is complete, not at the timeout', async () => {
    const o = await probe(mini('pretty'), 60_000, 60_000);
    // a timed-out request would read "no answer within 60000 ms"; these name the lines they saw
    assert.match(
      JSON.stringify(o.era),
      /server\/discover -> the answer came over 8 lines \(a pretty-printed message\).*fell back to 2025-11-25/,
    );
    const r = o.runs[0];
    assert.ok(
      r.warnings.some((w) => /^root cause: multi-line messages: the server writes a message over several lines/.test(w)),
      text(o).slice(0, 600),
    );
    assert.ok(
      r.failing.some((f) => f.startsWith('stdio-framing: stdout carried pieces of multi-line messages')),
      text(o).slice(0, 600),
    );
    assert.doesNotMatch(text(o), /no answer within/);
    assert.equal(r.grade, null, 'nothing was read as an answer: no grade');
  });
  it('a server that drops a line written in two chunks: the partial-line request ends once the sentinel after it is answered', async () => {
    const fixture = fileURLToPath(new URL('../../bin/mcpfixture.mjs', import.meta.url));
    const o = await probe(
      ['/usr/bin/env', 'FIXTURE_BREAK=stdio-no-reassemble', process.execPath, fixture, '--transport', 'stdio'],
      60_000,
      60_000,
    );
    const r = o.runs[0];
    // after the timeout it would read "no answer within 60000 ms"
    assert.ok(
      r.failing.some((f) =>
        /^stdio-partial-line: request written in two chunks: no answer 250 ms after the answer to a request sent after it \(\d+ ms\)/.test(
          f,
        ),
      ),
      text(o).slice(0, 800),
    );
    assert.doesNotMatch(text(o), /no answer within/);
  });
  it('a notification flood is named with its count and method', async () => {
    const o = await probe(mini('flood'), 10_000, 15_000);
    fast(o, 45_000);
    assert.match(
      text(o),
      /root cause: notification flood: the server wrote \d+ notifications nobody asked for in [\d.]+ s \(most: notifications\/message x\d+\)/,
    );
  });
  it('an exit right after initialize is named as such, and no later check is blamed', async () => {
    const o = await probe(mini('exit-after-initialize'), 10_000, 15_000);
    fast(o, 10_000);
    const r = o.runs[0];
    assert.match(r.warnings[0], /^root cause: the server exited right after initialize \(code 0\)/);
    assert.deepEqual(r.failing, [], 'no check after the handshake is failed for the exit');
  });
});
