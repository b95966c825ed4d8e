/**
 * Result arms over a fixture set: per fixture x arm, render, decode and compare (round trip),
 * count tokens under every tokenizer, savings vs `json` on the same fixture; then per arm x
 * tokenizer x class (tabular, non_tabular, all) totals and means over the fixtures the arm
 * rendered losslessly. A lossy rendering stays visible in its row (`round_trip: false`) and in
 * `lossy_n`, and is left out of every saving.
 */
import { canonicalJson } from '../corpus/canonical.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { mean } from '../util/stats.ts';
import type { JsonValue } from '../types.ts';
import { RESULT_BASELINE_ARM_ID, type ResultArm } from '../../arms/result-types.ts';
import type { ResultFixtureSet } from './fixture-file.ts';
import type { PayloadClass } from '../../arms/tabular.ts';
import type { ResultArmRow, ResultArmSummary, ResultClassScope, ResultRoundTrip } from '../report/index.ts';

export type { ResultArmRow, ResultArmSummary, ResultClassScope, ResultRoundTrip };

export const RESULT_CLASS_SCOPES: readonly ResultClassScope[] = Object.freeze(['tabular', 'non_tabular', 'all'] as const);

export interface ResultArmsRun {
  rows: ResultArmRow[];
  summary: ResultArmSummary[];
  round_trip: ResultRoundTrip[];
}

interface Rendered {
  text?: string;
  skip?: string;
  ok: boolean | null;
  error?: string;
}

/** Equal as JSON data (object key order ignored); a value canonical JSON cannot hold equals nothing. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** First path where two JSON values differ (for the round-trip error line). */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (sameJson(a, b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v).slice(0, 60));
  return `${path}: ${show(a)} became ${show(b)}`;
}

/** Render + decode one payload with one arm. */
export function renderChecked(arm: ResultArm, payload: JsonValue, cls: PayloadClass): Rendered {
  const skip = arm.skipReason(payload, cls);
  if (skip !== null) return { skip, ok: null };
  const text = arm.render(payload);
  let back: unknown;
  try {
    back = arm.decode(text);
  } catch (e) {
    return { text, ok: false, error: `decode failed: ${(e as Error).message.split('\n')[0]}` };
  }
  const diff = firstDifference(payload, back);
  return diff === null ? { text, ok: true } : { text, ok: false, error: diff };
}

const pct = (tokens: number, base: number): number | null => (base > 0 ? (1 - tokens / base) * 100 : null);

export function runResultArms(set: ResultFixtureSet, arms: readonly ResultArm[], tokenizers: readonly Tokenizer[]): ResultArmsRun {
  const base = arms.find((a) => a.meta.id === RESULT_BASELINE_ARM_ID);
  if (!base) throw new Error(`runResultArms: the ${RESULT_BASELINE_ARM_ID} arm must be selected (savings are measured against it)`);
  const rendered = new Map<string, Rendered>(); // arm \0 fixture
  for (const f of set.fixtures)
    for (const a of arms) rendered.set(`${a.meta.id}\u0000${f.id}`, renderChecked(a, f.payload, f.payload_class));
  for (const f of set.fixtures) {
    const r = rendered.get(`${RESULT_BASELINE_ARM_ID}\u0000${f.id}`)!;
    if (r.ok !== true)
      throw new Error(
        `fixture ${f.id}: the ${RESULT_BASELINE_ARM_ID} arm does not round-trip (${r.error ?? r.skip}); the fixture file is not valid JSON data`,
      );
  }
  const rows: ResultArmRow[] = [];
  for (const tk of tokenizers) {
    for (const f of set.fixtures) {
      const jsonTokens = tk.count(rendered.get(`${RESULT_BASELINE_ARM_ID}\u0000${f.id}`)!.text!);
      for (const a of arms) {
        const r = rendered.get(`${a.meta.id}\u0000${f.id}`)!;
        const row: ResultArmRow = {
          fixture_id: f.id,
          payload_class: f.payload_class,
          arm: a.meta.id,
          tokenizer: tk.name,
          skipped: r.skip !== undefined,
          json_tokens: jsonTokens,
          savings_vs_json_pct: null,
          round_trip: r.ok,
        };
        if (r.skip !== undefined) row.skip_reason = r.skip;
        else {
          const tokens = tk.count(r.text!);
          row.chars = r.text!.length;
          row.tokens = tokens;
          if (r.ok) row.savings_vs_json_pct = pct(tokens, jsonTokens);
          else row.round_trip_error = r.error;
        }
        rows.push(row);
      }
    }
  }
  const summary: ResultArmSummary[] = [];
  for (const a of arms) {
    for (const tk of tokenizers) {
      for (const scope of RESULT_CLASS_SCOPES) {
        const mine = rows.filter((r) => r.arm === a.meta.id && r.tokenizer === tk.name && (scope === 'all' || r.payload_class === scope));
        const good = mine.filter((r) => r.round_trip === true);
        const total = good.reduce((s, r) => s + r.tokens!, 0);
        const jsonTotal = good.reduce((s, r) => s + r.json_tokens, 0);
        summary.push({
          arm: a.meta.id,
          tokenizer: tk.name,
          payload_class: scope,
          fixtures: mine.length,
          n: good.length,
          lossy_n: mine.filter((r) => r.round_trip === false).length,
          skipped_n: mine.filter((r) => r.skipped).length,
          total_tokens: total,
          json_total_tokens: jsonTotal,
          savings_vs_json_pct: good.length ? pct(total, jsonTotal) : null,
          mean_tokens: good.length ? mean(good.map((r) => r.tokens!)) : null,
          mean_savings_vs_json_pct: good.length ? mean(good.map((r) => r.savings_vs_json_pct!)) : null,
        });
      }
    }
  }
  const round_trip: ResultRoundTrip[] = arms.map((a) => {
    const rs = set.fixtures.map((f) => ({ f, r: rendered.get(`${a.meta.id}\u0000${f.id}`)! }));
    return {
      arm: a.meta.id,
      checked: rs.filter((x) => x.r.ok !== null).length,
      lossless: rs.filter((x) => x.r.ok === true).length,
      lossy_fixtures: rs.filter((x) => x.r.ok === false).map((x) => x.f.id),
      skipped: rs.filter((x) => x.r.ok === null).length,
    };
  });
  return { rows, summary, round_trip };
}
