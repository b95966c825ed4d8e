/**
 * `--max-input-mb` on every leaf command of a program (util/fs.ts reads every input file with the
 * limit it sets). One home for the full CLI (pipeline/cli.ts) and the programs of one subcommand
 * that the light bundles run (proxy-main.ts, comply-main.ts: `runOneCommand`), so `mcpgauge proxy`
 * and `mcpgauge comply` take the same flags whichever program runs them.
 */
import type { Command } from 'commander';
import { DEFAULT_MAX_INPUT_MB, MAX_INPUT_ENV, parseMaxInputMb, setMaxInputMb } from '../util/fs.ts';
import { CliCommand, runProgram } from './exit.ts';

export function addMaxInputOption(program: Command): Command {
  const leaves = (c: Command): Command[] => (c.commands.length ? c.commands.flatMap(leaves) : [c]);
  for (const c of program.commands.flatMap(leaves))
    c.option(
      '--max-input-mb <n>',
      `size limit of every input file (corpus, golden set, report, config, parquet shard) in MiB; also ${MAX_INPUT_ENV} (default ${DEFAULT_MAX_INPUT_MB})`,
    );
  program.hook('preAction', (_program, action) => {
    const v = action.opts().maxInputMb as string | undefined;
    setMaxInputMb(v === undefined ? undefined : parseMaxInputMb(v, '--max-input-mb'));
  });
  return program;
}

/**
 * A program of one subcommand (`register` is its cli/<command>.ts register), with `--max-input-mb`
 * as in pipeline/cli.ts and the exit contract (cli/exit.ts); argv as process.argv:
 * [node, script, '<command>', ...flags].
 */
export async function runOneCommand(register: (program: Command) => void, argv: string[]): Promise<void> {
  const program = new CliCommand('mcpgauge');
  register(program);
  addMaxInputOption(program);
  await runProgram(program, argv);
}
