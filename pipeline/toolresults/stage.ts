/**
 * The offline result stage: load a result fixture file, run every result arm over it (per
 * fixture round trip, tokens under every tokenizer, savings vs `json`), and summarize the TOON vs
 * JSON ordering per payload class. Its output is the `results` section of report.json.
 */
import { relative } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { loadResultFixtures } from './fixture-file.ts';
import { resolveResultArms } from '../../arms/result-registry.ts';
import { runResultArms, RESULT_CLASS_SCOPES, type ResultArmRow } from './arm-rows.ts';
import { MIN_TABLE_ROWS } from '../../arms/tabular.ts';
import type { ResultsReport, ToonOrderingRow } from '../report/index.ts';

export type { ResultsReport, ToonOrderingRow };

export const RESULTS_METHOD =
  'each fixture payload rendered by each result arm; decode(render(payload)) compared with the payload as JSON data (key order ignored); tokens of the rendered text; savings vs the json arm on the same fixtures; a lossy or skipped rendering is never counted in savings';

const pct = (a: number, base: number): number | null => (base > 0 ? (1 - a / base) * 100 : null);

export function toonOrdering(rows: readonly ResultArmRow[], tokenizers: readonly Tokenizer[]): ToonOrderingRow[] {
  const out: ToonOrderingRow[] = [];
  for (const tk of tokenizers) {
    for (const scope of RESULT_CLASS_SCOPES) {
      const mine = rows.filter((r) => r.tokenizer === tk.name && (scope === 'all' || r.payload_class === scope));
      const by = (arm: string) => new Map(mine.filter((r) => r.arm === arm && r.round_trip === true).map((r) => [r.fixture_id, r]));
      const toon = by('toon');
      const compact = by('json_compact');
      const ids = [...toon.keys()].filter((id) => compact.has(id));
      const t = ids.reduce((s, id) => s + toon.get(id)!.tokens!, 0);
      const c = ids.reduce((s, id) => s + compact.get(id)!.tokens!, 0);
      const j = ids.reduce((s, id) => s + toon.get(id)!.json_tokens, 0);
      out.push({
        tokenizer: tk.name,
        payload_class: scope,
        n: ids.length,
        toon_tokens: t,
        json_tokens: j,
        json_compact_tokens: c,
        toon_vs_json_pct: pct(t, j),
        toon_vs_json_compact_pct: pct(t, c),
        fixtures_toon_fewer: ids.filter((id) => toon.get(id)!.tokens! < compact.get(id)!.tokens!).length,
        fixtures_toon_equal: ids.filter((id) => toon.get(id)!.tokens! === compact.get(id)!.tokens!).length,
        fixtures_toon_more: ids.filter((id) => toon.get(id)!.tokens! > compact.get(id)!.tokens!).length,
      });
    }
  }
  return out;
}

export function runResultsStage(opts: { file: string; tokenizers: readonly Tokenizer[]; arms?: readonly string[] | 'all' }): ResultsReport {
  const set = loadResultFixtures(opts.file);
  const arms = resolveResultArms(opts.arms ?? 'all');
  const run = runResultArms(set, arms, opts.tokenizers);
  const rel = relative(REPO_ROOT, opts.file);
  return {
    fixture_set: {
      version: set.version,
      source: rel.startsWith('..') ? opts.file : rel,
      fixture_count: set.fixture_count,
      tabular_count: set.tabular_count,
      non_tabular_count: set.non_tabular_count,
      fixtures_sha256: set.fixtures_sha256,
      tabular_rule: `tabular = a JSON array of >= ${MIN_TABLE_ROWS} objects with only primitive values and one shared key set; anything else non_tabular`,
    },
    arms: arms.map((a) => ({ id: a.meta.id, description: a.meta.description, ...(a.meta.library ? { library: a.meta.library } : {}) })),
    fixtures: set.fixtures.map((f) => ({
      id: f.id,
      server: f.server,
      tool: f.tool,
      payload_class: f.payload_class,
      payload_from: f.payload_from,
      ...(f.not_tabular_because ? { not_tabular_because: f.not_tabular_because } : {}),
    })),
    rows: run.rows,
    summary: run.summary,
    round_trip: run.round_trip,
    toon_ordering:
      arms.some((a) => a.meta.id === 'toon') && arms.some((a) => a.meta.id === 'json_compact')
        ? toonOrdering(run.rows, opts.tokenizers)
        : [],
    method: RESULTS_METHOD,
  };
}
