/** The `mcpgauge comply` command body: flags -> run or replay -> outputs -> exit code. */
import { readJsonFile, writeFileAtomic } from '../util/fs.ts';
import { assertOutputFiles } from '../util/out-path.ts';
import { UserError } from '../types.ts';
import { termLine } from '../util/escape.ts';
import { atLeast, GRADE_ORDER, type Letter } from './output/grade.ts';
import { listCatalog, listChecks } from './output/list.ts';
import { FORMATS, isFormat, type Format } from './render/index.ts';
import { comply, reportFromRecording, type Recording } from './comply.ts';
import { parseSelection } from './judge/select.ts';
import { parseTarget, secretsOf, targetFlagsOf } from './gather/server-target.ts';
import { LEGACY, MODERN, REVISIONS, type ComplyReport, type Revision, type SpecChoice } from './types.ts';
import { validateComplyReport } from './output/schema.ts';

function int(flag: string, v: unknown, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be an integer >= ${min} (got ${JSON.stringify(v)})`);
  return n;
}

function parseOut(s: string | undefined): Array<[Format, string]> {
  if (!s) return [];
  return s.split(',').map((pair) => {
    const i = pair.indexOf('=');
    const f = pair.slice(0, i).trim();
    const file = pair.slice(i + 1).trim();
    if (i <= 0 || !file) throw new UserError(`--out: expected FORMAT=FILE (got ${JSON.stringify(pair)})`);
    if (!isFormat(f) || f === 'terminal')
      throw new UserError(`--out: unknown format ${JSON.stringify(f)} (json, sarif, junit, markdown, html)`);
    return [f, file];
  });
}

function specChoice(v: unknown): SpecChoice {
  if (v === 'auto' || v === LEGACY || v === MODERN) return v;
  throw new UserError(`--spec-version must be auto, ${LEGACY} or ${MODERN} (got ${JSON.stringify(v)})`);
}

function progress(enabled: boolean) {
  if (!enabled) return undefined;
  let last = 0;
  return (rev: Revision, done: number, total: number) => {
    const now = Date.now();
    if (now - last < 80 && done < total) return;
    last = now;
    process.stderr.write(`\r  probing ${rev}: ${done}/${total}${done === total ? '\n' : ''}`);
  };
}

export async function runComplyCli(words: string[], o: Record<string, unknown>): Promise<number> {
  const stopping: Array<Promise<void>> = [];
  try {
    return await runCommand(words, o, stopping);
  } finally {
    // a run's stdio servers stop while its report is written, and are gone before the exit code
    await Promise.all(stopping);
  }
}

async function runCommand(words: string[], o: Record<string, unknown>, stopping: Array<Promise<void>>): Promise<number> {
  if (words[0] === 'benchmark') {
    const { runBenchmarkCli } = await import('./latency-bench.ts');
    return runBenchmarkCli(words.slice(1), o);
  }
  const format = String(o.format);
  if (!isFormat(format)) throw new UserError(`--format must be one of ${Object.keys(FORMATS).join(', ')} (got ${JSON.stringify(format)})`);
  const outs = parseOut(o.out as string | undefined);
  const spec = specChoice(o.specVersion);
  const selection = parseSelection(o.only as string | undefined, o.skip as string | undefined);
  const minGrade = o.minGrade === undefined ? undefined : String(o.minGrade).toUpperCase();
  if (minGrade !== undefined && !(GRADE_ORDER as readonly string[]).includes(minGrade))
    throw new UserError(`--min-grade must be A, B, C, D or F (got ${JSON.stringify(o.minGrade)})`);
  // every output path is checked before any probing starts (exit 2, one line naming it)
  assertOutputFiles([
    ...outs.map(([f, file]) => [`--out ${f}=${file}`, file] as const),
    ...(o.record ? [[`--record ${String(o.record)}`, String(o.record)] as const] : []),
  ]);
  if (o.list) {
    const revs: readonly Revision[] = spec === 'auto' ? REVISIONS : [spec];
    const wire = words.length ? (/^https?:/i.test(words[0]) ? 'http' : 'stdio') : undefined;
    process.stdout.write(
      format === 'json' ? `${JSON.stringify(listCatalog(revs, wire, selection), null, 2)}\n` : listChecks(revs, wire, selection),
    );
    return 0;
  }
  let report: ComplyReport;
  if (o.replay) {
    if (words.length) throw new UserError('--replay re-grades a recording: give no target');
    const rec = readJsonFile(String(o.replay)) as Recording;
    if (rec?.format !== 'mcpgauge-comply-recording' || !Array.isArray(rec.evidence))
      throw new UserError(`${String(o.replay)}: not an mcpgauge comply recording (format field)`);
    report = reportFromRecording(rec, selection, o.cap !== false);
  } else {
    const flags = targetFlagsOf(o);
    const target = parseTarget(words, flags);
    const secrets = secretsOf(target, flags);
    const tty = Boolean(process.stderr.isTTY) && !process.env.CI;
    const res = await comply(target, {
      spec,
      timeoutMs: int('--timeout', o.timeout, 1),
      startupTimeoutMs: int('--startup-timeout', o.startupTimeout, 1),
      onStopping: (p) => stopping.push(p),
      selection,
      invasive: o.invasive !== false,
      secrets,
      cap: o.cap !== false,
      onProgress: progress(tty),
      onStatus: tty ? (l) => process.stderr.write(`${termLine(l)}\n`) : undefined,
    });
    report = res.report;
    if (o.record) {
      writeFileAtomic(String(o.record), `${JSON.stringify(res.recording)}\n`);
      process.stderr.write(`comply: wrote recording ${String(o.record)}\n`);
    }
  }
  validateComplyReport(report);
  // everything rendered in memory first: a rendering failure writes nothing
  const rendered = await Promise.all(outs.map(async ([f, file]) => [file, await FORMATS[f](report, Boolean(o.verbose))] as const));
  const main = await FORMATS[format as Format](report, Boolean(o.verbose));
  for (const [file, text] of rendered) writeFileAtomic(file, text);
  // every --out says where it wrote (stderr: stdout carries the --format output)
  for (const [f, file] of outs) process.stderr.write(`comply: wrote ${f} ${file}\n`);
  process.stdout.write(main);
  const v = exitVerdict(report, Boolean(o.strict), minGrade as Letter | undefined);
  if (v.code) process.stderr.write(`mcpgauge comply: ${termLine(v.reason)}\n`);
  return v.code;
}

/**
 * The exit-code contract: 2 = nothing gradable (no run, no handshake, unreachable, coverage
 * under 50%), 1 = graded below the bar (--strict: a failing MUST; --min-grade), 0 otherwise.
 * Returns the code and the one-line reason (empty for 0).
 */
export function exitVerdict(report: ComplyReport, strict: boolean, minGrade?: Letter): { code: number; reason: string } {
  if (!report.runs.length) return { code: 2, reason: `nothing gradable: no revision was graded (${report.era.reason})` };
  for (const r of report.runs) {
    const where = `${r.revision}/${r.wire}`;
    if (r.startFailure) return { code: 2, reason: `nothing gradable on ${where}: ${r.startFailure}` };
    const h = r.results.find((x) => x.id === 'lifecycle-handshake');
    const post = r.results.find((x) => x.id === 'transport-post');
    const down = [post, h].find((x) => x && x.status !== 'pass' && x.status !== 'not_applicable');
    if (down && (down.reason === 'unreachable' || /unreachable|ECONNREFUSED|cannot start/i.test(down.detail)))
      return { code: 2, reason: `nothing gradable on ${where}: the server is unreachable (${down.detail.slice(0, 160)})` };
    if (h && h.status !== 'pass')
      return { code: 2, reason: `nothing gradable on ${where}: no handshake (${h.id} ${h.status}: ${h.detail.slice(0, 160)})` };
    if (r.conformance.grade === null)
      return { code: 2, reason: `nothing gradable on ${where}: coverage ${Math.round(r.conformance.coverage * 100)}% is under 50%` };
  }
  if (strict) {
    const bad = report.runs.flatMap((r) => r.conformance.failingMust.map((id) => `${id} (${r.revision}/${r.wire})`));
    if (bad.length) return { code: 1, reason: `--strict: ${bad.length} MUST check(s) failed: ${bad.slice(0, 6).join(', ')}` };
  }
  if (minGrade) {
    const low = report.runs.filter((r) => !atLeast(r.conformance.grade as Letter | null, minGrade));
    if (low.length)
      return {
        code: 1,
        reason: `--min-grade ${minGrade}: ${low.map((r) => `${r.revision}/${r.wire} graded ${r.conformance.grade} (score ${r.conformance.score}; ${r.conformance.failingMust.length} failing MUST)`).join(', ')}`,
      };
  }
  return { code: 0, reason: '' };
}

export function exitCode(report: ComplyReport, strict: boolean, minGrade?: Letter): number {
  return exitVerdict(report, strict, minGrade).code;
}
