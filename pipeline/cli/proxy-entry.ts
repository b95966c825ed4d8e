/**
 * A light process entry for the reference proxy: the same `proxy` subcommand as `mcpgauge proxy`,
 * without loading the other subcommands' modules (the container image bundles this one; see
 * docker/bundle.mjs). Run: node --import tsx pipeline/cli/proxy-entry.ts --config FILE [proxy flags]
 */
import { Command, CommanderError } from 'commander';
import { register } from './proxy.ts';
import { UserError } from '../types.ts';

const program = new Command('mcpgauge').exitOverride();
register(program);
try {
  await program.parseAsync([process.argv[0], process.argv[1], 'proxy', ...process.argv.slice(2)]);
} catch (e) {
  if (e instanceof CommanderError) process.exitCode = e.exitCode;
  else {
    process.stderr.write(`mcpgauge: ${((e as Error)?.message ?? String(e)).split('\n')[0]}\n`);
    process.exitCode = e instanceof UserError ? e.exitCode : 1;
  }
}
