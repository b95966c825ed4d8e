/**
 * Page-level banners: the tokenizer caveat, bounded token counts (a corpus whose over-long runs
 * were cut before tokenizing), and live warnings (no authoritative headline, LAP divergence).
 */
import type { Block, ReportSection } from '../details.ts';
import { html } from '../html.ts';
import type { Report } from '../types.ts';

export const caveatsSection: ReportSection<Report> = {
  id: 'caveats',
  title: 'Caveats',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/meta', '#/$defs/token_bounds'],
  frame: 'bare',
  build(r) {
    // per-tokenizer caveats only when they add something to the banner text
    const items = r.meta.tokenizers.map((t) => html`<li><b>${t.name}</b>${t.caveat === r.meta.caveat ? '' : `: ${t.caveat}`}</li>`);
    const blocks: Block[] = [
      { kind: 'banner', id: 'tokenizer-caveat', tone: 'warn', title: 'Tokenizer caveat.', text: html`${r.meta.caveat}<ul>${items}</ul>` },
    ];
    for (const c of r.corpora) {
      const tb = c.token_bounds;
      if (!tb) continue;
      const fields = tb.fields.map(
        (f) => html`<li><code>${f.tool_id}</code> ${f.field}: ${f.runs} run(s), longest ${f.longest_run} characters, ${f.cuts} cut(s)</li>`,
      );
      const arms = tb.arms.map((a) => `${a.arm} (${a.texts} text(s), ${a.cuts} cut(s))`).join(', ');
      blocks.push({
        kind: 'banner',
        id: `token-bounds-${c.id}`,
        tone: 'warn',
        title: `Bounded token counts in ${c.id}.`,
        text: html`${tb.note} Run limit ${tb.run_limit} characters; ${tb.fields_total} tool field(s) hold such a run${tb.fields_total > tb.fields.length ? ` (the first ${tb.fields.length} listed)` : ''}.<ul>${fields}</ul>${arms ? html`Arms affected: ${arms}.` : ''}`,
      });
    }
    if (r.live && !r.live.authoritative_headline) {
      blocks.push({ kind: 'banner', tone: 'bad', title: 'No headline savings for the live proxy.', text: r.live.headline_reason ?? '' });
    }
    if (r.live?.lap.warning) {
      blocks.push({
        kind: 'banner',
        id: 'lap-warning',
        tone: 'warn',
        title: 'Warning: LAP counts the menu differently.',
        text: html`${r.live.lap.warning}. LAP is a third-party linter we run on the live proxy as a second opinion; this is not a failure of the run. <a href="#live-lap">What LAP counts</a>.`,
      });
    }
    return { blocks };
  },
};
