/** Headline tiles: baseline listing, largest saving, baseline Recall@5, live menu and break-even. */
import { BASELINE_ARM_ID } from '../../constants.ts';
import type { ReportSection, Tile } from '../details.ts';
import { html } from '../html.ts';
import { fmtInt, fmtMetric, fmtNum } from '../render.ts';
import { isScored, type Report, type RetrievalScored } from '../types.ts';
import { primaryTokenizer } from './common.ts';
import { menuSavingsPct } from '../../economics/savings.ts';

function offlineTiles(r: Report, tok: string): Tile[] {
  const tiles: Tile[] = [];
  const main = r.corpora[0];
  if (!main) return tiles;
  const arms = r.arms.filter((a) => a.corpus_id === main.id && !a.skipped && a.by_tokenizer[tok]);
  const base = arms.find((a) => a.arm === BASELINE_ARM_ID);
  if (base) {
    const f = base.by_tokenizer[tok].total_tokens;
    tiles.push({ label: `${BASELINE_ARM_ID} listing`, value: fmtInt(f.value), sub: `tokens · ${main.id} · ${tok}`, provenance: f.provenance });
  }
  const best = arms.filter((a) => a.arm !== BASELINE_ARM_ID).sort((a, b) => b.by_tokenizer[tok].savings_vs_baseline_pct.value - a.by_tokenizer[tok].savings_vs_baseline_pct.value)[0];
  if (best) {
    const f = best.by_tokenizer[tok].savings_vs_baseline_pct;
    tiles.push({ label: 'largest savings vs baseline', value: `${fmtNum(f.value, 1)}%`, sub: `${best.arm}${best.lower_bound ? ' (lower bound)' : ''} · ${tok}`, provenance: f.provenance });
  }
  const ret = r.retrieval.find((x): x is RetrievalScored => isScored(x) && x.corpus_id === main.id && x.arm === BASELINE_ARM_ID);
  if (ret) {
    const f = ret.metrics.recall_at_5;
    const ci = f.ci95 ? ` · 95% CI [${fmtMetric(f.ci95[0])}, ${fmtMetric(f.ci95[1])}]` : '';
    tiles.push({ label: `Recall@5 (${BASELINE_ARM_ID}, ${ret.retriever.id})`, value: fmtMetric(f.value), sub: `n=${f.n ?? ret.query_count}${ci}`, provenance: f.provenance });
  }
  return tiles;
}

function liveTiles(r: Report, tok: string): Tile[] {
  const live = r.live;
  if (!live) return [];
  const tiles: Tile[] = [];
  const menu = live.menus.find((m) => m.tokenizer === tok) ?? live.menus[0];
  if (menu) {
    tiles.push({ label: 'proxy menu (live tools/list)', value: fmtInt(menu.proxy_menu_tokens.value), sub: `tokens · ${menu.proxy_tool_count} tools · ${menu.tokenizer}`, provenance: menu.proxy_menu_tokens.provenance });
    tiles.push({ label: 'naive full menu (upstreams)', value: fmtInt(menu.full_menu_tokens.value), sub: `tokens · ${menu.upstream_tool_count} tools · ${menu.tokenizer}`, provenance: menu.full_menu_tokens.provenance });
    const pct = live.authoritative_headline ? menuSavingsPct(menu.full_menu_tokens.value, menu.proxy_menu_tokens.value) : null;
    if (pct !== null) {
      tiles.push({ label: 'menu savings through the proxy', value: `${fmtNum(pct, 1)}%`, sub: 'before any discovery call', provenance: 'computed' });
    }
  }
  const be = live.economics.break_even.find((b) => b.tokenizer === tok);
  if (be) {
    tiles.push({
      label: `break-even (${be.arm})`,
      value: be.no_break_even ? html`<span class="bad">none</span>` : fmtNum(be.break_even_calls ?? 0, 1),
      sub: be.no_break_even ? be.reason ?? '' : 'discovery calls per session',
      provenance: be.provenance,
    });
  }
  const rs = live.response_summary.find((s) => s.tokenizer === tok && s.detail === 'full') ?? live.response_summary[0];
  if (rs) tiles.push({ label: `response p50 / p95 (${rs.detail})`, value: `${fmtInt(rs.p50)} / ${fmtInt(rs.p95)}`, sub: `tokens per discovery call · n=${rs.n}`, provenance: 'measured' });
  return tiles;
}

export const headlinesSection: ReportSection<Report> = {
  id: 'headlines',
  title: 'Headline numbers',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/arm', '#/$defs/retrieval', '#/$defs/live'],
  build(r) {
    const tok = primaryTokenizer(r);
    return { tiles: [...offlineTiles(r, tok), ...liveTiles(r, tok)], blocks: [] };
  },
};
