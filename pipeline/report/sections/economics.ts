/** Offline economics: break-even calls and session estimates per (corpus, arm, tokenizer). */
import type { ReportSection } from '../details.ts';
import type { Report } from '../types.ts';
import { economicsBlocks } from './common.ts';

export const economicsSection: ReportSection<Report> = {
  id: 'economics',
  title: 'Economics (offline)',
  provenanceKeys: ['economics.break_even', 'economics.session_estimates'],
  schemaRefs: ['#/$defs/economics', '#/$defs/break_even_row', '#/$defs/session_estimate_row'],
  build: (r) => ({
    blocks: economicsBlocks(
      r.economics,
      'economics',
      'Offline',
      r.provenance['economics.break_even'],
      r.provenance['economics.session_estimates'],
    ),
  }),
};
