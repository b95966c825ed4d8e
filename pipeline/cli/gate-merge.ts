import type { Command } from 'commander';
import { UserError } from '../types.ts';
import { termLine } from '../util/escape.ts';
import type { FragmentOptions } from '../gate/fragment.ts';

/** The fragment flags of `mcpgauge gate` (pipeline/gate/README.md, Fragments). */
export function addFragmentOptions(cmd: Command): void {
  cmd
    .option(
      '--fragment <dir>',
      'run the one cell of --cells (or --cells yardstick: the fixture grade) and write its fragment + logs into DIR, for `gate merge`',
    )
    .option(
      '--proxy-build <paths>',
      "comma-separated files/folders that make up the proxy under test (hashed into the fragments' proxy digest)",
    );
}

/** `gate --fragment DIR`: runs the cell, prints one line, sets the cell's exit code. */
export async function runFragmentCli(cmd: Command, opts: Omit<FragmentOptions, 'fragmentDir'>, o: Record<string, unknown>): Promise<void> {
  if (cmd.getOptionValueSource('out') === 'cli')
    throw new UserError('--fragment writes into its own folder: --out is for a whole run and for `gate merge`', 2);
  const { runFragment } = await import('../gate/fragment.ts');
  const proxyBuild =
    typeof o.proxyBuild === 'string'
      ? o.proxyBuild
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  const run = await runFragment({ ...opts, fragmentDir: String(o.fragment), proxyBuild });
  const f = run.fragment;
  const what =
    f.kind === 'cell'
      ? `${f.report!.cells[0].status}: ${f.report!.cells[0].reason}`
      : `${f.fixture_compliance!.status}: ${f.fixture_compliance!.reason}`;
  // an optional cell's red is exit 0 (it does not fail the gate), but it is not called green
  const red = f.kind === 'cell' ? f.report!.cells[0].status === 'fail' : f.fixture_compliance!.status === 'fail';
  const word = run.exitCode !== 0 ? 'RED' : red ? 'RED (optional cell: exit 0)' : 'GREEN';
  process.stdout.write(`gate fragment ${f.id} ${word} (${termLine(what.slice(0, 200))}) -> ${run.file}\n`);
  process.exitCode = run.exitCode;
}

/** Registers `mcpgauge gate merge DIR...` under the gate command. */
export function registerMerge(gate: Command): void {
  gate
    .command('merge')
    .description(
      'Merge gate fragments (gate --fragment) from one or more folders into gate-report.json, summary.md and junit.xml; fail closed; exit 0 green, 1 red, 2 could not run',
    )
    .argument('[dirs...]', 'folders holding *.fragment.json files (searched recursively)')
    .option('--config <file>', 'the gate config the fragments must have run with', 'gate.config.json')
    .option('--cells <list>', 'comma-separated cells this gate consists of (default: every cell of the config)')
    .option('--allow-flaky', 'a cell that passed only on its retry counts as green')
    .option('--no-fixture-grade', 'do not require the yardstick fragment (gate --cells yardstick --fragment DIR)')
    .option('--out <dir>', 'output folder', 'results/gate')
    .action(async (dirs: string[], o: Record<string, string | boolean | undefined>) => {
      const { mergeFragments } = await import('../gate/merge.ts');
      const { verdictWord, countsText } = await import('../gate/assemble.ts');
      const run = await mergeFragments({
        dirs,
        configFile: String(o.config),
        cells:
          typeof o.cells === 'string'
            ? o.cells
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : undefined,
        allowFlaky: o.allowFlaky === true,
        gradeFixture: o.fixtureGrade !== false,
        outDir: String(o.out),
      });
      const r = run.report;
      const n = r.merged_from!.fragments.length;
      process.stdout.write(
        `gate merge ${verdictWord(r)}: ${n} fragment(s); ${countsText(r.counts)} -> ${run.files.report}\n` +
          r.failures.map((f) => `  ${termLine(f)}\n`).join(''),
      );
      process.exitCode = run.exitCode;
    });
}
