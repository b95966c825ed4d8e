/** Methodology notes (meta.notes). */
import type { ReportSection } from '../details.ts';
import type { Report } from '../types.ts';

export const notesSection: ReportSection<Report> = {
  id: 'notes',
  title: 'Methodology notes',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/meta'],
  appliesTo: (r) => Boolean(r.meta.notes?.length),
  build: (r) => ({ blocks: [{ kind: 'list', items: r.meta.notes ?? [] }] }),
};
