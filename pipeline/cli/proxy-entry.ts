/**
 * A light process entry for the reference proxy: the same `proxy` subcommand as `mcpgauge proxy`,
 * without loading the other subcommands' modules (the container image bundles this one; see
 * docker/bundle.mjs). Run: node --import tsx pipeline/cli/proxy-entry.ts --config FILE [proxy flags]
 * Exit codes: cli/exit.ts.
 */
import { main } from './proxy-main.ts';

await main([process.argv[0], process.argv[1], 'proxy', ...process.argv.slice(2)]);
