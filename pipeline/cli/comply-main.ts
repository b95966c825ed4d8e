/**
 * The compliance prober's own program: the `comply` subcommand of `mcpgauge` with the same flags
 * (`--max-input-mb` included, cli/max-input.ts) and the same exit contract (cli/exit.ts), without
 * the other subcommands. bin/mcpgauge.mjs runs it for `mcpgauge comply …` from comply's own
 * bundle (dist/comply-bundle/comply.cjs, scripts/lib/bundle.mjs): one CommonJS file compiled with
 * V8's code cache, so the server under test is spawned sooner.
 */
import { runOneCommand } from './max-input.ts';
import { register } from './comply.ts';

/** argv as process.argv: [node, script, 'comply', ...flags] */
export const main = (argv: string[]): Promise<void> => runOneCommand(register, argv);
