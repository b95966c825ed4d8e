/**
 * LAP (lap-score) independent verdict for the live stage. Never fails the run: every problem
 * becomes `{executed: false, skip_reason}`.
 *
 * - `--lap-json FILE`: merge an external `lap lint --json` result (reads `grade.letter` and
 *   `menu_tokens`).
 * - else, when a `lap` executable is on PATH and the proxy has an HTTP URL: run
 *   `lap lint --mcp-url URL --json` and merge its output.
 * - else: `skipped: lap not installed`.
 * divergence_pct = 100 * (lap_menu - in_house_menu) / in_house_menu; |divergence| > 15 warns
 * (LAP frames the menu differently, so some divergence is expected).
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFile } from 'node:child_process';
import type { LapResult } from '../report/types.ts';

export const LAP_DIVERGENCE_WARN_PCT = 15;

export interface LapOptions {
  /** external lap JSON to merge */
  lapJson?: string;
  /** 'off' skips LAP entirely */
  mode?: 'auto' | 'off';
  /** executable to run instead of `lap` from PATH (absolute path) */
  lapCommand?: string;
  /** in-house proxy menu tokens (cl100k_base) to compare with */
  inHouseMenuTokens: number;
  /** HTTP URL of the proxy (lap needs one) */
  httpUrl?: string;
  timeoutMs?: number;
}

/** Finds an executable named `name` on PATH (null when absent). */
export function findOnPath(name: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return p;
      }
    } catch {
      /* not here */
    }
  }
  return null;
}

/** Parse a lap JSON document (text) into a LapResult, or a skip reason. */
export function parseLapText(text: string, where: string, inHouse: number): LapResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { executed: false, skip_reason: `LAP artifact ${where} is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { executed: false, skip_reason: `LAP artifact ${where} is not a JSON object` };
  }
  const d = data as Record<string, unknown>;
  const menu = d.menu_tokens;
  if (typeof menu !== 'number' || !Number.isFinite(menu) || menu <= 0) {
    return { executed: false, skip_reason: `LAP artifact ${where} has no positive menu_tokens (got ${JSON.stringify(menu ?? null)})` };
  }
  const out: LapResult = { executed: true, menu_tokens: menu };
  const grade = d.grade;
  if (typeof grade === 'string') out.grade = grade;
  else if (grade && typeof grade === 'object' && typeof (grade as Record<string, unknown>).letter === 'string') {
    out.grade = (grade as Record<string, string>).letter;
  }
  if (typeof d.version === 'string') out.version = d.version;
  if (inHouse > 0) {
    const div = (100 * (menu - inHouse)) / inHouse;
    out.in_house_menu_tokens = inHouse;
    out.divergence_pct = Math.round(div * 100) / 100;
    if (Math.abs(div) > LAP_DIVERGENCE_WARN_PCT) {
      out.warning =
        `LAP counts ${menu} menu tokens, ours ${inHouse} (cl100k_base): ${div > 0 ? '+' : ''}${out.divergence_pct}% ` +
        `(more than ±${LAP_DIVERGENCE_WARN_PCT}%; LAP frames the menu differently, check both before quoting either)`;
    }
  }
  return out;
}

function runLap(cmd: string, url: string, timeoutMs: number): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    execFile(cmd, ['lint', '--mcp-url', url, '--json'], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && !stdout.trim()) {
        const tail = String(stderr).trim().split('\n').slice(-2).join(' | ');
        resolve({ ok: false, error: `${err.message.split('\n')[0]}${tail ? ` (${tail})` : ''}` });
      } else resolve({ ok: true, stdout });
    });
  });
}

/** The LAP block of the live report. Never throws. */
export async function lapSection(o: LapOptions): Promise<LapResult> {
  try {
    if (o.mode === 'off') return { executed: false, skip_reason: 'skipped: LAP disabled (--no-lap)' };
    if (o.lapJson !== undefined) {
      let text: string;
      try {
        text = readFileSync(o.lapJson, 'utf8');
      } catch (e) {
        return { executed: false, skip_reason: `LAP artifact unreadable: ${o.lapJson}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
      }
      const r = parseLapText(text, o.lapJson, o.inHouseMenuTokens);
      if (r.executed) r.artifact_path = o.lapJson;
      return r;
    }
    const cmd = o.lapCommand ?? findOnPath('lap');
    if (!cmd) return { executed: false, skip_reason: 'skipped: lap not installed' };
    if (!o.httpUrl) return { executed: false, skip_reason: 'skipped: lap needs an HTTP proxy URL (the target is a stdio command)' };
    const res = await runLap(cmd, o.httpUrl, o.timeoutMs ?? 120_000);
    if (!res.ok) return { executed: false, skip_reason: `lap failed: ${res.error}` };
    return parseLapText(res.stdout, `from \`${cmd} lint\``, o.inHouseMenuTokens);
  } catch (e) {
    return { executed: false, skip_reason: `LAP step failed: ${(e as Error).message}` };
  }
}
