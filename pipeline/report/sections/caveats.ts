/** Page-level banners: the tokenizer caveat, and live warnings (no authoritative headline, LAP divergence). */
import type { Block, ReportSection } from '../details.ts';
import { html } from '../html.ts';
import type { Report } from '../types.ts';

export const caveatsSection: ReportSection<Report> = {
  id: 'caveats',
  title: 'Caveats',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/meta'],
  frame: 'bare',
  build(r) {
    // per-tokenizer caveats only when they add something to the banner text
    const items = r.meta.tokenizers.map((t) => html`<li><b>${t.name}</b>${t.caveat === r.meta.caveat ? '' : `: ${t.caveat}`}</li>`);
    const blocks: Block[] = [{ kind: 'banner', id: 'tokenizer-caveat', tone: 'warn', title: 'Tokenizer caveat.', text: html`${r.meta.caveat}<ul>${items}</ul>` }];
    if (r.live && !r.live.authoritative_headline) {
      blocks.push({ kind: 'banner', tone: 'bad', title: 'No headline savings for the live proxy.', text: r.live.headline_reason ?? '' });
    }
    if (r.live?.lap.warning) {
      blocks.push({
        kind: 'banner', id: 'lap-warning', tone: 'warn', title: 'Warning: LAP counts the menu differently.',
        text: html`${r.live.lap.warning}. LAP is a third-party linter we run on the live proxy as a second opinion; this is not a failure of the run. <a href="#live-lap">What LAP counts</a>.`,
      });
    }
    return { blocks };
  },
};
