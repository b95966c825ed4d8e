import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../types.ts';

/** Registers `mcpgauge report`: one dashboard from a bench report and, when given or found, a gate report. */
export function register(program: Command): void {
  program
    .command('report')
    .description(
      'Render one self-contained dashboard from a bench report (report.json) and, when given or found, a gate report (gate-report.json). Exit 0 written, 2 could not run as asked (missing or invalid report, --out not writable)',
    )
    .option('--results <dir>', 'results folder: takes <dir>/discovery/report.json and <dir>/gate/gate-report.json when present', 'results')
    .option('--bench <file>', 'bench report (default: <results>/discovery/report.json)')
    .option('--gate <file>', 'gate report (default: <results>/gate/gate-report.json when it exists)')
    .option('--out <file>', 'dashboard to write (default: <results>/dashboard.html)')
    .action(async (o: { results: string; bench?: string; gate?: string; out?: string }) => {
      const { readJsonFile, writeFileAtomic } = await import('../util/fs.ts');
      const { loadReportReader, renderDashboard } = await import('../report/index.ts');
      const { readReport } = await loadReportReader();
      const { validateGateReport } = await import('../gate/report.ts');
      const { gateSectionInput } = await import('../gate/section.ts');
      const { REPORT_SECTIONS } = await import('../sections.ts');
      const dir = resolve(o.results);
      const out = o.out ?? join(dir, 'dashboard.html');
      // the output path first: one that can never be written fails now (exit 2), not after rendering
      if (o.out !== undefined) (await import('../util/out-path.ts')).assertOutputFile(out, `--out ${o.out}`);
      const benchFile = o.bench ?? join(dir, 'discovery', 'report.json');
      if (!existsSync(benchFile)) throw new UserError(`${benchFile}: no bench report (run make bench-discovery, or give --bench FILE)`);
      // report.json plus its per-query rows from tables/per_query.parquet beside it (what the bench drew)
      const bench = await readReport(benchFile);
      const gateFile = o.gate ?? join(dir, 'gate', 'gate-report.json');
      let gate;
      if (o.gate !== undefined || existsSync(gateFile)) {
        const raw = readJsonFile(gateFile);
        const problems = validateGateReport(raw);
        if (problems.length) throw new UserError(`${gateFile}: not a valid gate report: ${problems.slice(0, 3).join('; ')}`);
        gate = raw as import('../gate/report.ts').GateReport;
      }
      writeFileAtomic(out, await renderDashboard(bench, REPORT_SECTIONS, gate ? [gateSectionInput(gate)] : []));
      process.stdout.write(`dashboard: ${out}${gate ? ` (bench + gate ${gate.verdict})` : ' (bench only: no gate report)'}\n`);
    });
}
