/**
 * The bench report's sections, in page order: the list is data. A new section is its file
 * under sections/, its schema part, and one line here (docs/architecture.md, "Add a report
 * section"). Other documents (gate, compliance, a second system) bring their own lists; the
 * renderer (render.ts renderPage) draws any mix of sections, each with the document it reads.
 */
import type { ReportSection } from './details.ts';
import type { Report } from './types.ts';
import { caveatsSection } from './sections/caveats.ts';
import { headlinesSection } from './sections/headlines.ts';
import { chartsSection } from './sections/charts.ts';
import { corporaSection } from './sections/corpora.ts';
import { armsSection } from './sections/arms.ts';
import { retrievalSection } from './sections/retrieval.ts';
import { retrieversSection } from './sections/retrievers.ts';
import { economicsSection } from './sections/economics.ts';
import { liveSection } from './sections/live.ts';
import { systemsSection } from './sections/systems.ts';
import { scaleSection } from './sections/scale.ts';
import { resultsSection } from './sections/results.ts';
import { liveResultsSection } from './sections/live_results.ts';
import { notesSection } from './sections/notes.ts';

export const REPORT_SECTIONS: readonly ReportSection<Report>[] = Object.freeze([
  caveatsSection,
  headlinesSection,
  chartsSection,
  corporaSection,
  armsSection,
  retrievalSection,
  retrieversSection,
  economicsSection,
  resultsSection,
  liveSection,
  systemsSection,
  scaleSection,
  liveResultsSection,
  notesSection,
]);
