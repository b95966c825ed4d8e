/**
 * The profiler's own program: the `bench` subcommand of `mcpgauge` with the same flags
 * (`--max-input-mb` included, cli/max-input.ts) and the same exit contract (cli/exit.ts), without
 * the other subcommands. bin/mcpgauge.mjs runs it for `mcpgauge bench …` from bench's own bundle
 * (dist/bench-bundle/bench.cjs, scripts/lib/bundle.mjs): one CommonJS file compiled with V8's
 * code cache instead of the CLI's ES chunks, which node compiles on every start (issue 31: a
 * corpus_v2-sized run ~50 ms sooner). The MCP SDK stays out of it (the live stage loads it).
 */
import { runOneCommand } from './max-input.ts';
import { register } from './bench.ts';

/** argv as process.argv: [node, script, 'bench', ...flags] */
export const main = (argv: string[]): Promise<void> => runOneCommand(register, argv);
