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

const dir = fileURLToPath(new URL('./hostile/', import.meta.url));
const CHILD = `${dir}probe-child.ts`;
const RSS_LIMIT_KB = 300 * 1024;

interface Out {
  ms: number;
  maxRssKb: number;
  runs: Array<{ revision: string; grade: string | null; failing: string[]; warnings: string[] }>;
  warnings: string[];
}

function probe(target: string[], timeoutMs = 1500, startupMs = 1500): Promise<Out> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', CHILD, String(timeoutMs), String(startupMs), ...target], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    await Promise.all(servers.map((c) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGTERM'))))));
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
