/**
 * The public face of pipeline/report/: other folders import from here only (the layer check,
 * scripts/lib/layers.mjs `faceViolations`, fails an import of an inner file). Inside the folder,
 * files import each other directly; tests may reach any file.
 *
 * Loading this file loads the report's own code only (the renderer, the sections, the schema
 * check; vega loads when a chart is drawn, ajv when a report is validated). The two parts that
 * load packages at import time stay behind a loader, so a stage that only builds rows or draws a
 * section does not load them: `loadReportWriter` (write.ts: apache-arrow, hyparquet-writer) and
 * `loadReportReader` (read.ts: hyparquet).
 */

// the document: every type of report.json and its few constants (REPORT_VERSION, isScored, ...)
export * from './types.ts';

// building it: rows the stages share, provenance keys
export { breakEvenRow, curveRows, queryIdsDigest, sessionRows, toQueryRow } from './rows.ts';
export {
  LAP_PROVENANCE,
  LIVE_PROVENANCE,
  LIVE_RESULT_PROVENANCE,
  OFFLINE_PROVENANCE,
  RESULTS_PROVENANCE,
  SCALE_PROVENANCE,
  SYSTEMS_PROVENANCE,
} from './provenance.ts';
export { REPORT_SCHEMA_PATH, validateReport } from './validate.ts';

// the renderer: sections, blocks, escaping, the page, the dashboard, the console summary, charts
export { sectionFor } from './details.ts';
export type { Block, ChartRef, ReportSection, SectionInput, TableRow, Tile } from './details.ts';
export { html } from './html.ts';
export { fmtNum, renderPage, rich } from './render.ts';
export { colorsBy } from './palette.ts';
export { renderDashboard } from './dashboard.ts';
export { summaryLines } from './summary.ts';

// the sections that read report data only (pipeline/sections.ts lists them) and their helpers
export { caveatsSection } from './sections/caveats.ts';
export { headlinesSection } from './sections/headlines.ts';
export { chartsSection } from './sections/charts.ts';
export { corporaSection } from './sections/corpora.ts';
export { armsSection } from './sections/arms.ts';
export { retrievalSection } from './sections/retrieval.ts';
export { retrieversSection } from './sections/retrievers.ts';
export { economicsSection } from './sections/economics.ts';
export { liveSection } from './sections/live.ts';
export { systemOrder, systemsSection } from './sections/systems.ts';
export { resultsSection } from './sections/results.ts';
export { notesSection } from './sections/notes.ts';
export { primaryTokenizer } from './sections/common.ts';

// the parts that load packages when imported: loaded when called
export type { WrittenReport } from './write.ts';
/** write.ts (`writeReport`): loads apache-arrow and hyparquet-writer */
export const loadReportWriter = (): Promise<typeof import('./write.ts')> => import('./write.ts');
/** read.ts (`readReport`): loads hyparquet */
export const loadReportReader = (): Promise<typeof import('./read.ts')> => import('./read.ts');
