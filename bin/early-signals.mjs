// The fixture's signal contract from the first millisecond: SIGTERM/SIGINT exit 0, also while the
// modules are still loading. Imported first by bin/mcpfixture.mjs and bin/mcpgauge.mjs (fixture
// command); no dependencies, so it runs before anything else is read. The fixture installs its own
// graceful handlers once it serves and then calls the release function stored under the symbol.
const KEY = Symbol.for('mcpgauge.earlySignals');
if (!globalThis[KEY]) {
  const early = () => process.exit(0);
  process.on('SIGTERM', early);
  process.on('SIGINT', early);
  globalThis[KEY] = () => {
    process.off('SIGTERM', early);
    process.off('SIGINT', early);
  };
}
