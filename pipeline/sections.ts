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
import {
  caveatsSection,
  headlinesSection,
  chartsSection,
  corporaSection,
  armsSection,
  retrievalSection,
  retrieversSection,
  economicsSection,
  liveSection,
  systemsSection,
  resultsSection,
  notesSection,
  type ReportSection,
  type Report,
} from './report/index.ts';
import { scaleSection } from './scale/section.ts';
import { liveResultsSection } from './live/section.ts';

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
