/** Self-contained HTML page: the same section the bench dashboard embeds, alone. */
import type { ComplyReport } from '../types.ts';
import { allWarnings, esc, failing, gradeText, poolText, runTitle } from './common.ts';

export const COMPLY_CSS = `.comply{font:14px/1.45 system-ui,sans-serif;color:#1d2330}.comply h2{margin:.2em 0}.comply .grade{font-size:2.2em;font-weight:700;margin-right:.3em}
.comply .run{border:1px solid #d5d9e0;border-radius:8px;padding:12px 16px;margin:12px 0}.comply .bar{display:inline-block;height:10px;background:#e4e7ec;width:160px;border-radius:5px;overflow:hidden;vertical-align:middle}
.comply .bar i{display:block;height:100%;background:#2f7d4f}.comply td{padding:2px 10px 2px 0}.comply .fail{color:#a32121}.comply blockquote{margin:2px 0 6px 16px;color:#4a5263}`;

/** The compliance section (an HTML fragment), also used inside the bench dashboard. */
export function complySection(rep: ComplyReport): string {
  const runs = rep.runs.map((r) => {
    const bars = r.categories
      .map((c) => `<tr><td>${esc(c.category)}</td><td><span class="bar"><i style="width:${c.evaluated ? Math.round((100 * c.passed) / c.evaluated) : 0}%"></i></span></td><td>${c.passed}/${c.evaluated}${c.applicable > c.evaluated ? ` (${c.applicable - c.evaluated} not evaluated)` : ''}</td></tr>`)
      .join('');
    const f = failing(r)
      .map((x) => `<li class="fail"><b>${esc(x.id)}</b> [${esc(x.meta.severity)}] ${esc(x.detail)}<blockquote>${esc(x.meta.spec.sentence)} <a href="${esc(x.meta.spec.url)}">spec</a><br>Fix: ${esc(x.meta.fix)}</blockquote></li>`)
      .join('');
    return `<div class="run"><h3>${esc(runTitle(r))}</h3><p><span class="grade">${esc(r.conformance.grade ?? '–')}</span>${esc(gradeText(r.conformance))} · ${esc(poolText(r.conformance))} · security posture ${esc(gradeText(r.security))}</p><table>${bars}</table>${f ? `<h4>Failing checks</h4><ul>${f}</ul>` : '<p>No failing checks.</p>'}</div>`;
  });
  const w = allWarnings(rep);
  return `<section class="comply"><h2>MCP compliance: ${esc(rep.target)}</h2><p>Era ${esc(String(rep.era.detected ?? rep.era.choice))}: ${esc(rep.era.reason)}. Provenance: ${esc(rep.provenance.kind)} — ${esc(rep.provenance.method)}.</p>${runs.join('')}${w.length ? `<h4>Warnings</h4><ul>${w.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}</section>`;
}

export function renderHtml(rep: ComplyReport): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP compliance: ${esc(rep.target)}</title><style>${COMPLY_CSS}</style></head><body>${complySection(rep)}</body></html>\n`;
}
