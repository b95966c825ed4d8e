#!/usr/bin/env zx
// `make bench-discovery`: the default profile. Offline arms + retrieval on the frozen corpus
// (plus any corpus fetched into .cache/ by `make fetch`), then the live stage against the
// embedded default proxy. ARGS pass through, e.g.
//   make bench-discovery ARGS="--no-live"      make bench-discovery ARGS="--out DIR"
//   make bench-discovery ARGS="--out=DIR --arms baseline_json,compact_sig"
//   make bench-discovery ARGS="--substrate compose"   the live stage against the reference proxy
//     in a container (docker compose of fixture + proxy; scripts/lib/compose.mjs); default: local
import { $, fs, path } from 'zx';
import { benchDiscoveryArgs, takeOption } from './lib/args.mjs';
$.verbose = true;
const root = path.resolve(import.meta.dirname, '..');
const cached = path.join(root, '.cache', 'corpora', 'livemcptool', 'tools.json');
let args;
let substrate;
try {
  const words = takeOption(process.argv.slice(2), '--substrate');
  substrate = words.value ?? 'local';
  if (!['local', 'compose'].includes(substrate))
    throw new Error(`--substrate must be "local" or "compose", got ${JSON.stringify(substrate)}`);
  args = benchDiscoveryArgs(words.rest, { root, cachedCorpus: fs.existsSync(cached) ? cached : undefined });
  if (substrate === 'compose' && !args.includes('--live')) throw new Error('--substrate compose measures the live stage: drop --no-live');
} catch (e) {
  console.error(`make bench-discovery: ${e.message}`);
  process.exit(2);
}
if (substrate === 'compose') {
  const { runOnCompose } = await import('./lib/compose.mjs');
  process.exit(await runOnCompose(root, args));
}
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs ${args}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
