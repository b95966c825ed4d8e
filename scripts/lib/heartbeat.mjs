// A long phase's sign of life for the build scripts and the Makefile (pipeline/util/heartbeat.ts
// is the same for the library, which scripts cannot import: they run before dist/ exists). While
// the phase runs, one line on stderr every MCPGAUGE_HEARTBEAT_MS (default 5 s): "<what>: still
// running (N s)", so a first run never sits 10 s without output, TTY or not.
//   import { startHeartbeat } from './lib/heartbeat.mjs'   const stop = startHeartbeat('build: tsc')
//   node scripts/lib/heartbeat.mjs 'deps: npm ci' -- npm ci …   runs the command, exits with its code
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function startHeartbeat(what, everyMs = Number(process.env.MCPGAUGE_HEARTBEAT_MS) || 5_000) {
  const t0 = Date.now();
  const timer = setInterval(() => process.stderr.write(`${what}: still running (${Math.round((Date.now() - t0) / 1000)} s)\n`), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [what, sep, cmd, ...args] = process.argv.slice(2);
  if (!what || sep !== '--' || !cmd) {
    process.stderr.write('usage: node scripts/lib/heartbeat.mjs WHAT -- COMMAND [ARGS...]\n');
    process.exit(2);
  }
  const stop = startHeartbeat(what);
  const child = spawn(cmd, args, { stdio: 'inherit' });
  child.on('error', (e) => {
    stop();
    process.stderr.write(`${what}: cannot start ${cmd} (${e.code ?? e.message})\n`);
    process.exit(2);
  });
  child.on('close', (code, signal) => {
    stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}
