import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../types.ts';

function reportPath(p: string): string {
  const abs = resolve(p);
  return existsSync(abs) && statSync(abs).isDirectory() ? join(abs, 'report.json') : abs;
}

/** Registers `mcpgauge diff OLD NEW`: release-over-release comparison of two report.json files. */
export function register(program: Command): void {
  program
    .command('diff')
    .description(
      'Compare two report.json files of the same corpus/golden set: per figure old, new, delta, and whether the change is outside the old bootstrap CI (retrieval) or a tolerance (tokens, latency, break-even, errors). Exit 0 no regression, 1 a regression, 2 could not run as asked (missing or truncated file, not a bench report, reports not comparable, bad flags).',
    )
    .argument('<old>', 'old report.json (or its folder)')
    .argument('<new>', 'new report.json (or its folder)')
    .option('--out <dir>', 'write diff.md and diff.json into this folder')
    .option('--json', 'print the JSON result instead of markdown on stdout')
    .option('--tolerances <file>', 'JSON file with any of tokens_pct, latency_pct, latency_floor_ms, break_even_pct, errors_abs')
    .option('--tokens-pct <pct>', 'allowed growth of token figures, percent (default 1)')
    .option('--latency-pct <pct>', 'allowed growth of latency figures, percent (default 100)')
    .option('--latency-floor-ms <ms>', 'latency changes below this many ms never count (default 25)')
    .option('--break-even-pct <pct>', 'allowed drop of break-even calls, percent (default 5)')
    .option('--errors-abs <n>', 'allowed growth of live error rows (default 0)')
    .action(async (oldArg: string, newArg: string, flags: Record<string, string | boolean | undefined>) => {
      const { readJsonFile, writeFileSet } = await import('../util/fs.ts');
      const { validateReport } = await import('../report/index.ts');
      const { diffReports } = await import('../diff/compare.ts');
      const { renderDiffMarkdown } = await import('../diff/markdown.ts');
      const { resolveTolerances } = await import('../diff/tolerances.ts');
      // --out first: a folder that can never be written fails now, not after the comparison
      if (flags.out) (await import('../util/fs.ts')).assertOutputDir(resolve(String(flags.out)), '--out');
      const num = (k: string): number | undefined => {
        const v = flags[k];
        if (v === undefined) return undefined;
        const n = Number(v);
        if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n))
          throw new UserError(`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a number, got ${JSON.stringify(v)}`);
        return n;
      };
      const tol = resolveTolerances(flags.tolerances as string | undefined, {
        tokens_pct: num('tokensPct'),
        latency_pct: num('latencyPct'),
        latency_floor_ms: num('latencyFloorMs'),
        break_even_pct: num('breakEvenPct'),
        errors_abs: num('errorsAbs'),
      });
      const load = (p: string) => {
        const path = reportPath(p);
        // a missing file, truncated JSON or another kind of report: could not run as asked (exit 2, one line)
        const raw = readJsonFile(path) as { tool?: unknown } | null;
        if (raw && typeof raw === 'object' && raw.tool === 'mcpgauge gate') {
          throw new UserError(
            `${path}: this is a gate report (mcpgauge gate), not a bench report.json; diff compares bench reports (a gate report is compared by \`mcpgauge gate --baseline FILE\`)`,
            2,
          );
        }
        try {
          return { path, report: validateReport(raw as never) };
        } catch (e) {
          throw new UserError(`${path}: ${(e as Error).message}`);
        }
      };
      const a = load(oldArg);
      const b = load(newArg);
      const result = diffReports(a.report, b.report, { old: a.path, new: b.path }, tol);
      const md = renderDiffMarkdown(result);
      const json = `${JSON.stringify(result, null, 2)}\n`;
      if (flags.out) {
        const dir = resolve(String(flags.out));
        // into the folder (a symlink followed, other files kept), each file atomically, diff.json last
        writeFileSet(
          dir,
          [
            { path: 'diff.md', data: md },
            { path: 'diff.json', data: json },
          ],
          '--out',
        );
        process.stderr.write(`diff: ${join(dir, 'diff.md')}\ndiff: ${join(dir, 'diff.json')}\n`);
      }
      process.stdout.write(flags.json ? json : md);
      const s = result.summary;
      process.stderr.write(
        `diff: ${result.verdict} (${s.regression} regression(s), ${s.removed} removed, ${s.improvement} improvement(s), ${s.within + s.unchanged} within/unchanged)\n`,
      );
      if (result.verdict === 'fail') process.exitCode = 1;
    });
}
