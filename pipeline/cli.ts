/**
 * `mcpgauge` command line. Each subcommand lives in pipeline/cli/<name>.ts and exports
 * `register(program)`; this file only wires them. The exit-code contract (0 passed, 1 found a
 * failure, 2 could not run as asked) and the one-line error messages are pipeline/cli/exit.ts.
 */
import type { Command } from 'commander';
import { applyContract, CliCommand, runProgram } from './cli/exit.ts';
import { addMaxInputOption } from './cli/max-input.ts';
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
  const program = new CliCommand('mcpgauge').description(
    'Measure what MCP tool discovery costs (bench, diff, report), grade MCP servers against the spec (comply), ' +
      'gate proxy releases (gate); plus the fault-injecting fixture server and the reference discovery proxy. ' +
      'Exit codes: 0 ran and passed, 1 ran and found a failure, 2 could not run as asked.',
  );
  for (const m of [corpus, bench, fixture, proxy, diff, comply, gate, report, models]) m.register(program);
  // one input size limit (util/fs.ts reads every input file with it): --max-input-mb on every command that runs
  addMaxInputOption(program);
  return applyContract(program);
}

export async function main(argv: string[]): Promise<void> {
  await runProgram(buildProgram(), argv);
}
