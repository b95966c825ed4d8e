// The fixture's signal contract from the first millisecond: SIGTERM/SIGINT exit 0, also while the
// modules are still loading. Imported first by bin/mcpfixture.mjs and bin/mcpgauge.mjs (fixture
// command); no dependencies, so it runs before anything else is read. The fixture installs its own
// graceful handlers once it serves and then calls the release function stored under the symbol.
// MCPGAUGE_DEBUG set: one stderr line when armed (test/fixture/early-signals.test.ts tells by it
// whether a signal arrived before node ran any JavaScript at all, which no handler can catch).
const KEY = Symbol.for('mcpgauge.earlySignals');
if (!globalThis[KEY]) {
  const early = (sig) => {
    process.stderr.write(`[mcpfixture] received ${sig} while starting, exiting\n`);
    process.exit(0);
  };
  process.on('SIGTERM', early);
  process.on('SIGINT', early);
  globalThis[KEY] = () => {
    process.off('SIGTERM', early);
    process.off('SIGINT', early);
  };
  if (process.env.MCPGAUGE_DEBUG) process.stderr.write(`[mcpfixture] signal handlers armed at ${performance.now().toFixed(0)} ms\n`);
}
