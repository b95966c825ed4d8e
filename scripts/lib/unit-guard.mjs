// The unit layer's fence (scripts/test-quick.mjs preloads it with --import): inside a test file's
// process (node's runner sets NODE_TEST_CONTEXT there, not in the runner itself), starting a
// process, listening on a port or opening a socket throws, so a file listed as unit that does
// any of it fails the quick run instead of quietly making it slow.
import { syncBuiltinESMExports } from 'node:module';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const UNIT_GUARD_MARK = 'unit layer:';

if (process.env.NODE_TEST_CONTEXT) {
  const refuse = (what) =>
    function () {
      throw new Error(
        `${UNIT_GUARD_MARK} ${what} is not allowed in a unit-layer test (scripts/lib/test-layers.mjs lists this file as unit: move it out of UNIT)`,
      );
    };
  const cp = require('node:child_process');
  for (const f of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) cp[f] = refuse(`child_process.${f}`);
  const net = require('node:net');
  net.Server.prototype.listen = refuse('listening on a port (net.Server.listen)');
  net.Socket.prototype.connect = refuse('opening a socket (net.Socket.connect)');
  syncBuiltinESMExports();
}
