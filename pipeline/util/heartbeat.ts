/**
 * A long phase's sign of life: while it runs, one line every `everyMs` (default 5 s) that says it
 * still runs and for how long, so a first run (npm install, tsc, the LAP venv) never sits 10 s
 * without output, TTY or not. The phase prints its own start and end lines; this only fills the
 * middle. Returns stop(); the timer never keeps the process alive.
 */
export const HEARTBEAT_MS = 5_000;

export function heartbeat(log: (line: string) => void, what: string, everyMs: number = HEARTBEAT_MS): () => void {
  const t0 = Date.now();
  const timer = setInterval(() => log(`${what}: still running (${Math.round((Date.now() - t0) / 1000)} s)`), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
