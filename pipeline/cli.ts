/**
 * `mcpgauge` command line. Each subcommand lives in pipeline/cli/<name>.ts and exports
 * `register(program)`; this file only wires them and turns errors into one-line messages.
 */
import { VERSION } from './constants.ts';
import { Command, CommanderError } from 'commander';
import { UserError } from './types.ts';
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

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode;
      return;
    }
    const msg = (e as Error)?.message ?? String(e);
    process.stderr.write(`mcpgauge: ${msg.split('\n')[0]}\n`);
    if (process.env.MCPGAUGE_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    process.exitCode = e instanceof UserError ? e.exitCode : 1;
  }
}
