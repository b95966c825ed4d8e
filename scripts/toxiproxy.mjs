#!/usr/bin/env node
// Build toxiproxy (the network cells' fault proxy, pipeline/gate/network/toxiproxy.ts) once into
// the cache, so no gate run or test has to: `go install` from the Go module proxy (about a minute).
// Needs dist/ (`make build`). Exit 0 built or already cached (the path on stdout), 2 cannot build
// (one line saying why: no Go, a failed build).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const { ensureToxiproxy, TOXIPROXY_VERSION } = await import(
  pathToFileURL(resolve(root, 'dist', 'pipeline', 'gate', 'network', 'toxiproxy.js')).href
);
const r = await ensureToxiproxy();
if (!r.ok) {
  process.stderr.write(`toxiproxy: ${r.reason}\n`);
  process.exit(2);
}
process.stdout.write(
  `toxiproxy ${TOXIPROXY_VERSION}: ${r.binary}${r.built_ms === null ? ' (cached)' : ` (built in ${(r.built_ms / 1000).toFixed(1)} s)`}\n`,
);
