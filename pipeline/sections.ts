/**
 * The bench dashboard's sections, in page order: THE section list (data). It sits above the
 * renderer and the producers, so the renderer (pipeline/report/) never imports a producer:
 * sections that read report data only live in pipeline/report/sections/, a producer's own
 * section lives beside it (`pipeline/<producer>/section.ts`), and this list passes them all to
 * `renderDashboard` / `writeReport`. A new section = one file (beside its producer, or under
 * report/sections/ when it only reads what other sections read) + one line here
 * (pipeline/report/README.md). Other documents bind their own section where they render it
 * (`gate/section.ts` `gateSectionInput`, `comply/section-input.ts`).
 */
import type { ReportSection } from './report/details.ts';
import type { Report } from './report/types.ts';
import { caveatsSection } from './report/sections/caveats.ts';
import { headlinesSection } from './report/sections/headlines.ts';
import { chartsSection } from './report/sections/charts.ts';
import { corporaSection } from './report/sections/corpora.ts';
import { armsSection } from './report/sections/arms.ts';
import { retrievalSection } from './report/sections/retrieval.ts';
import { retrieversSection } from './report/sections/retrievers.ts';
import { economicsSection } from './report/sections/economics.ts';
import { liveSection } from './report/sections/live.ts';
import { systemsSection } from './report/sections/systems.ts';
import { scaleSection } from './scale/section.ts';
import { resultsSection } from './report/sections/results.ts';
import { liveResultsSection } from './live/section.ts';
import { notesSection } from './report/sections/notes.ts';

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
