/**
 * util/proc.ts stopChild, the one home of "stop a child": with stdinGraceMs a child that exits on
 * stdin EOF leaves by itself (the MCP stdio shutdown order comply's stdio target uses); without
 * it the group gets SIGTERM at once; a child that ignores SIGTERM gets SIGKILL after graceMs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawnGroup, stopChild } from '../../pipeline/util/proc.ts';

// exits 0 on stdin EOF; reports ready once its handlers are set
const ON_EOF = "process.stdin.on('end', () => process.exit(0)); process.stdin.resume(); process.stdout.write('ready\\n');";
const STAYS_ON_EOF =
  "process.stdin.on('end', () => {}); process.stdin.resume(); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";
const IGNORES_TERM =
  "process.on('SIGTERM', () => {}); process.stdin.resume(); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";

async function start(
  code: string,
): Promise<{ child: ChildProcess; ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawnGroup(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'ignore'], label: 'proc-stop test' });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (c, s) => r({ code: c, signal: s })),
  );
  await new Promise<void>((r) => child.stdout!.once('data', () => r()));
  return { child, ended };
}

test('stopChild with stdinGraceMs: a child that exits on stdin EOF leaves by itself, no signal', async () => {
  const { child, ended } = await start(ON_EOF);
  await stopChild(child, { stdinGraceMs: 5000, graceMs: 1000 });
  assert.deepEqual(await ended, { code: 0, signal: null });
});

test('stopChild without stdinGraceMs: SIGTERM to the group at once', async () => {
  // a child that stays on after stdin EOF: only the SIGTERM ends it (one that exits on EOF could
  // see the EOF first on a loaded machine and leave with code 0, as CI once showed)
  const { child, ended } = await start(STAYS_ON_EOF);
  child.stdin!.on('error', () => {});
  await stopChild(child, { graceMs: 5000 });
  assert.deepEqual(await ended, { code: null, signal: 'SIGTERM' }, 'ended by the SIGTERM, not the SIGKILL after graceMs');
});

test('stopChild: a child that ignores SIGTERM is killed after graceMs', async () => {
  const { child, ended } = await start(IGNORES_TERM);
  const t0 = performance.now();
  await stopChild(child, { graceMs: 300 });
  assert.equal((await ended).signal, 'SIGKILL');
  assert.ok(performance.now() - t0 >= 250, 'waited the grace first');
});
