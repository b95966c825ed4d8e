/**
 * Headline tiles: baseline listing, largest saving, Recall@5 of the default retriever and the
 * run's best retriever (with its paired difference), the live menus and break-even. Each tile says
 * what it counts (which catalog, which tokenizer, which retriever) so two tiles that look alike
 * cannot be read as one figure.
 */
import { BASELINE_ARM_ID } from '../../constants.ts';
import { DEFAULT_RETRIEVER_ID } from '../../retrieval/index.ts';
import type { ReportSection, Tile } from '../details.ts';
import { html } from '../html.ts';
import { fmtInt, fmtMetric, fmtNum } from '../render.ts';
import { isScored, type BreakEvenRow, type Report, type RetrievalScored } from '../types.ts';
import { primaryTokenizer } from './common.ts';
import { menuSavingsPct } from '../../economics/savings.ts';

const signed = (x: number) => `${x >= 0 ? '+' : '\u2212'}${fmtMetric(Math.abs(x))}`;
const ci = (c?: [number, number]) => (c ? ` [${fmtMetric(c[0])}, ${fmtMetric(c[1])}]` : '');

/** The scored baseline rows of the main corpus: the default retriever's, and the best of the run. */
export function recallHeadline(r: Report): { base?: RetrievalScored; best?: RetrievalScored } {
  const main = r.corpora[0];
  if (!main) return {};
  const rows = r.retrieval.filter((x): x is RetrievalScored => isScored(x) && x.corpus_id === main.id && x.arm === BASELINE_ARM_ID);
  const base = rows.find((x) => x.retriever.id === DEFAULT_RETRIEVER_ID);
  const best = [...rows].sort((a, b) => b.metrics.recall_at_5.value - a.metrics.recall_at_5.value)[0];
  return {
    base,
    best: best && best !== base && best.metrics.recall_at_5.value > (base?.metrics.recall_at_5.value ?? -1) ? best : undefined,
  };
}

function recallTiles(r: Report): Tile[] {
  const { base, best } = recallHeadline(r);
  const tiles: Tile[] = [];
  if (base) {
    const f = base.metrics.recall_at_5;
    tiles.push({
      label: `Recall@5, default retriever ${DEFAULT_RETRIEVER_ID}`,
      value: fmtMetric(f.value),
      sub: `${BASELINE_ARM_ID} · n=${f.n ?? base.query_count} · 95% CI${ci(f.ci95)}`,
      provenance: f.provenance,
    });
  }
  if (best) {
    const f = best.metrics.recall_at_5;
    const d = best.vs_default;
    const paired = d ? ` · vs ${DEFAULT_RETRIEVER_ID} ${signed(d.delta)}${ci(d.ci95)} paired` : '';
    tiles.push({
      label: `Recall@5, best retriever ${best.retriever.id}${best.tuning ? ' (CV held-out)' : ''}`,
      value: fmtMetric(f.value),
      sub: html`95% CI${ci(f.ci95)}${paired} · <a href="#retrievers">retrievers compared</a>`,
      provenance: f.provenance,
    });
  }
  return tiles;
}

function offlineTiles(r: Report, tok: string): Tile[] {
  const tiles: Tile[] = [];
  const main = r.corpora[0];
  if (!main) return tiles;
  const arms = r.arms.filter((a) => a.corpus_id === main.id && !a.skipped && a.by_tokenizer[tok]);
  const base = arms.find((a) => a.arm === BASELINE_ARM_ID);
  if (base) {
    const f = base.by_tokenizer[tok].total_tokens;
    tiles.push({
      label: `full listing of the corpus (${BASELINE_ARM_ID})`,
      value: fmtInt(f.value),
      sub: `tokens · ${main.tool_count} tools of ${main.id}, rendered offline · ${tok}`,
      provenance: f.provenance,
    });
  }
  const best = arms
    .filter((a) => a.arm !== BASELINE_ARM_ID)
    .sort((a, b) => b.by_tokenizer[tok].savings_vs_baseline_pct.value - a.by_tokenizer[tok].savings_vs_baseline_pct.value)[0];
  if (best) {
    const f = best.by_tokenizer[tok].savings_vs_baseline_pct;
    tiles.push({
      label: 'largest savings vs baseline',
      value: `${fmtNum(f.value, 1)}%`,
      sub: `${best.arm}${best.lower_bound ? ' (lower bound)' : ''} · ${tok}`,
      provenance: f.provenance,
    });
  }
  return [...tiles, ...recallTiles(r)];
}

/**
 * Break-even in words: below `break_even_calls` discovery calls per session the proxy costs fewer
 * tokens than the full menu; past it the full menu is cheaper. One row per mode (full, compact).
 */
export function breakEvenSentence(rows: readonly BreakEvenRow[], tok: string): string | undefined {
  const mine = rows.filter((b) => b.tokenizer === tok);
  if (mine.length === 0) return undefined;
  const parts = mine.map((b) => `${b.no_break_even ? 'never' : fmtNum(b.break_even_calls ?? 0, 1)} (${b.arm.replace(/^proxy_/, '')})`);
  return `the proxy is cheaper than the full menu for sessions with up to ${parts.join(', ')} discovery calls; past that the full menu wins; ${tok}`;
}

function liveTiles(r: Report, tok: string): Tile[] {
  const live = r.live;
  if (!live) return [];
  const tiles: Tile[] = [];
  const menu = live.menus.find((m) => m.tokenizer === tok) ?? live.menus[0];
  if (menu) {
    tiles.push({
      label: 'proxy menu (live tools/list)',
      value: fmtInt(menu.proxy_menu_tokens.value),
      sub: `tokens · ${menu.proxy_tool_count} tools · ${menu.tokenizer}`,
      provenance: menu.proxy_menu_tokens.provenance,
    });
    const corpusTools = r.corpora.find((c) => c.id === live.corpus_id)?.tool_count;
    const why = corpusTools !== undefined && corpusTools !== menu.upstream_tool_count ? ` (the corpus listing has ${corpusTools})` : '';
    tiles.push({
      label: 'naive full menu (live upstreams)',
      value: fmtInt(menu.full_menu_tokens.value),
      sub: `tokens · ${menu.upstream_tool_count} tools: every upstream the proxy serves, listed live${why} · ${menu.tokenizer}`,
      provenance: menu.full_menu_tokens.provenance,
    });
    const pct = live.authoritative_headline ? menuSavingsPct(menu.full_menu_tokens.value, menu.proxy_menu_tokens.value) : null;
    if (pct !== null) {
      tiles.push({
        label: 'menu savings through the proxy',
        value: `${fmtNum(pct, 1)}%`,
        sub: 'before any discovery call',
        provenance: 'computed',
      });
    }
  }
  const rows = live.economics.break_even.filter((b) => b.tokenizer === tok);
  if (rows.length > 0) {
    const value = rows.map((b) => (b.no_break_even ? html`<span class="bad">never</span>` : html`${fmtNum(b.break_even_calls ?? 0, 1)}`));
    const modes = rows.map((b) => b.arm.replace(/^proxy_/, '')).join(' / ');
    const reasons = rows
      .filter((b) => b.no_break_even)
      .map((b) => `${b.arm}: ${b.reason ?? ''}`)
      .join('; ');
    tiles.push({
      label: `proxy cheaper than the full menu up to (${modes})`,
      value: html`${value.map((v, i) => (i ? html` / ${v}` : v))}`,
      sub: html`discovery calls per session; past that the full menu wins · ${tok}${reasons ? ` · ${reasons}` : ''} · <a href="#live-economics-break-even">how</a>`,
      provenance: rows[0].provenance,
    });
  }
  const rs = live.response_summary.find((s) => s.tokenizer === tok && s.detail === 'full') ?? live.response_summary[0];
  if (rs)
    tiles.push({
      label: `response p50 / p95 (${rs.detail})`,
      value: `${fmtInt(rs.p50)} / ${fmtInt(rs.p95)}`,
      sub: `tokens per discovery call · n=${rs.n}`,
      provenance: 'measured',
    });
  return tiles;
}

export const headlinesSection: ReportSection<Report> = {
  id: 'headlines',
  title: 'Headline numbers',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/arm', '#/$defs/retrieval', '#/$defs/live'],
  summary: (r) => {
    const out: string[] = [];
    const { base, best } = recallHeadline(r);
    if (base)
      out.push(
        `recall@5 (${BASELINE_ARM_ID}, default ${DEFAULT_RETRIEVER_ID}): ${fmtMetric(base.metrics.recall_at_5.value)}${ci(base.metrics.recall_at_5.ci95)}`,
      );
    if (best)
      out.push(
        `recall@5 best retriever ${best.retriever.id}: ${fmtMetric(best.metrics.recall_at_5.value)}${ci(best.metrics.recall_at_5.ci95)}${best.vs_default ? `, ${signed(best.vs_default.delta)}${ci(best.vs_default.ci95)} vs ${DEFAULT_RETRIEVER_ID} (paired)` : ''}`,
      );
    const be = r.live ? breakEvenSentence(r.live.economics.break_even, primaryTokenizer(r)) : undefined;
    if (be) out.push(`break-even: ${be}`);
    return out;
  },
  build(r) {
    const tok = primaryTokenizer(r);
    return { tiles: [...offlineTiles(r, tok), ...liveTiles(r, tok)], blocks: [] };
  },
};
