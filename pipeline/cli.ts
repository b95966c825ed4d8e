/**
 * `mcpgauge` command line. Each subcommand lives in pipeline/cli/<name>.ts and exports
 * `register(program)`; this file only wires them and turns errors into one-line messages.
 */
import { VERSION } from './constants.ts';
import { Command, CommanderError } from 'commander';
import { UserError } from './types.ts';
import { termLine } from './util/escape.ts';
import * as corpus from './cli/corpus.ts';
import * as bench from './cli/bench.ts';
import * as fixture from './cli/fixture.ts';
import * as proxy from './cli/proxy.ts';
import * as gate from './cli/gate.ts';
import * as report from './cli/report.ts';
import * as diff from './cli/diff.ts';
import * as comply from './cli/comply.ts';
import * as models from './cli/models.ts';

export function buildProgram(): Command {
  const program = new Command('mcpgauge')
    .description('Measure MCP tool-discovery cost and quality; fixture, reference proxy and (later) release gate.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  for (const m of [corpus, bench, fixture, proxy, diff, comply, gate, report, models]) m.register(program);
  return program;
}

/** Commands whose usage errors exit 2 (the exit-code contract in README.md); comply keeps its own. */
const EXIT2_USAGE = ['gate', 'diff', 'bench'];

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // gate, diff and bench: a usage error is "could not run as asked" (2), help/version stay 0
      process.exitCode = e.exitCode !== 0 && EXIT2_USAGE.includes(argv[2]) ? 2 : e.exitCode;
      return;
    }
    const msg = (e as Error)?.message ?? String(e);
    process.stderr.write(`mcpgauge: ${termLine(msg.split('\n')[0])}\n`);
    if (process.env.MCPGAUGE_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    // gate, diff and bench report a verdict through process.exitCode (1 = failure / regression); anything
    // thrown means they could not run as asked: 2
    process.exitCode = EXIT2_USAGE.includes(argv[2]) ? 2 : e instanceof UserError ? e.exitCode : 1;
  }
}
