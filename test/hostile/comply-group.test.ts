/**
 * comply's server under test runs in its own process group (issue 29 item 6): a server that
 * starts children of its own (an npx or shell wrapper does) leaves none behind when comply ends,
 * nor when comply is interrupted with SIGINT.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describePids, newTag, sleep, sweep, taggedPids, TAG_VAR } from './helpers-processes.ts';

const BIN = fileURLToPath(new URL('../../bin/mcpgauge.mjs', import.meta.url));
const SERVER = fileURLToPath(new URL('./servers/proc-comply-server.mjs', import.meta.url));

function comply(tag: string, args: string[]) {
  const c = spawn(process.execPath, [BIN, 'comply', ...args, '--', process.execPath, SERVER], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [TAG_VAR]: tag },
  });
  let err = '';
  c.stderr.on('data', (d) => (err += d));
  const done = new Promise<number | null>((r) => c.on('exit', (code, sig) => r(code ?? (sig ? 128 : null))));
  return { c, done, err: () => err };
}

async function gone(tag: string, ms: number): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const left = taggedPids(tag);
    if (left.length === 0 || Date.now() > end) return left;
    await sleep(100);
  }
}

test('a finished comply run leaves no process of the server behind (its child included)', { timeout: 120_000 }, async () => {
  const tag = newTag();
  try {
    const r = comply(tag, ['--spec-version', '2025-11-25', '--format', 'json']);
    const code = await r.done;
    assert.ok(code === 0 || code === 1, `comply ran (exit ${code}): ${r.err().slice(-300)}`);
    const left = await gone(tag, 2000);
    assert.deepEqual(left, [], `left behind:\n${describePids(left)}`);
  } finally {
    sweep(tag);
  }
});

test('SIGINT to comply mid-run ends the server and its child', { timeout: 120_000 }, async () => {
  const tag = newTag();
  try {
    const r = comply(tag, ['--spec-version', '2025-11-25']);
    // wait until the server and its sleep run
    const end = Date.now() + 20_000;
    while (taggedPids(tag).length < 3 && Date.now() < end) await sleep(50);
    assert.ok(taggedPids(tag).length >= 3, 'comply, the server and its child are running');
    r.c.kill('SIGINT');
    await r.done;
    const left = await gone(tag, 2000);
    assert.deepEqual(left, [], `left behind:\n${describePids(left)}`);
  } finally {
    sweep(tag);
  }
});
