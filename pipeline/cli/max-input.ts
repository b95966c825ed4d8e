/**
 * `--max-input-mb` on every leaf command of a program (util/fs.ts reads every input file with the
 * limit it sets). One home for the full CLI (pipeline/cli.ts) and the proxy's light entry
 * (proxy-main.ts), so `mcpgauge proxy` takes the same flags whichever program runs it.
 */
import type { Command } from 'commander';
import { DEFAULT_MAX_INPUT_MB, MAX_INPUT_ENV, parseMaxInputMb, setMaxInputMb } from '../util/fs.ts';

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
