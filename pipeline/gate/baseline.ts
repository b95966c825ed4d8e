/** --baseline FILE: a stored gate report (per-cell numbers) or a bench report (its live section). */
import { readJsonFile } from '../util/fs.ts';
import { harnessError } from './config.ts';
import type { BaselineMetrics, CellMetrics } from './types.ts';

export function loadBaseline(path: string, tokenizer: string): BaselineMetrics {
  let raw: any;
  try {
    raw = readJsonFile(path);
  } catch (e) {
    throw harnessError((e as Error).message);
  }
  if (raw?.tool === 'mcpgauge gate' && Array.isArray(raw.cells)) {
    const byCell: Record<string, CellMetrics> = {};
    for (const c of raw.cells) if (c && typeof c.id === 'string' && c.metrics && typeof c.metrics === 'object') byCell[c.id] = c.metrics;
    return { source: path, kind: 'gate', byCell };
  }
  if (raw && typeof raw.report_version === 'number') {
    const live = raw.live;
    if (!live) throw harnessError(`${path}: bench report without a live section (run bench with --live); nothing to compare a proxy with`);
    const all: CellMetrics = { tokenizer };
    const menu = (live.menus ?? []).find((m: any) => m.tokenizer === tokenizer);
    if (typeof menu?.proxy_menu_tokens?.value === 'number') all.menu_tokens = menu.proxy_menu_tokens.value;
    const resp = (live.response_summary ?? []).find((s: any) => s.tokenizer === tokenizer && s.detail === 'full');
    if (typeof resp?.p50 === 'number') all.discovery_median_tokens = resp.p50;
    const ret = (live.retrieval ?? []).find((x: any) => x.detail === 'full');
    if (typeof ret?.summary?.recall_at_5?.value === 'number') all.recall_at_5 = ret.summary.recall_at_5.value;
    const lat = (live.latency ?? []).find((x: any) => x.detail === 'full');
    if (typeof lat?.p95_ms === 'number') all.latency_p95_ms = lat.p95_ms;
    return { source: path, kind: 'bench', byCell: {}, all };
  }
  throw harnessError(`${path}: neither a gate report (tool "mcpgauge gate") nor a bench report (report_version)`);
}
