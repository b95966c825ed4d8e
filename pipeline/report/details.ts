/**
 * What a report section returns (Lighthouse's "details"): tiles, tables with typed columns,
 * chart references and a few text blocks. Sections never write HTML strings; the one renderer
 * (render.ts) draws any of these. Fragments a section needs inside a cell come from the `html`
 * tagged template (html.ts), so report text is escaped by construction.
 */
import type { Figure, Provenance } from '../types.ts';
import type { SafeHtml } from './html.ts';
import type { ChartColors } from './palette.ts';

export type { Figure, Provenance };

/** How a column's values are drawn and sorted. */
export type ColumnType =
  /** free text, escaped */
  | 'text'
  /** an identifier (corpus, arm, query id, tokenizer): never wrapped */
  | 'ident'
  /** an identifier shown bold (the row's subject) */
  | 'key'
  /** integer, thousands separators; null/undefined = em dash */
  | 'int'
  /** number with `digits` decimals; null/undefined = em dash */
  | 'num'
  /** a Figure: value (+ CI, title with provenance/tokenizer/n); see `figure` options */
  | 'figure';

export interface Column {
  key: string;
  label: string;
  type: ColumnType;
  /** 'num': decimals (default 1); 'figure': decimals instead of an integer */
  digits?: number;
  /** 'figure': a retrieval metric (3 decimals, CI in brackets) */
  metric?: boolean;
  /** 'figure': a percentage (negative values red) */
  pct?: boolean;
  /** 'figure': show the provenance badge next to the value */
  badge?: boolean;
  /** free text that needs room (queries) */
  wide?: boolean;
  /** text in the monospace face (tool names) */
  mono?: boolean;
}

/** A pre-built cell (escaped by construction) with its sort key. Overrides the column type. */
export interface RichCell {
  rich: SafeHtml;
  sort?: number | string | null;
  num?: boolean;
  nw?: boolean;
  /** span this many columns (the rest of the row's keys are then ignored) */
  colspan?: number;
}

export type CellValue = string | number | boolean | null | undefined | Figure | RichCell;
export type TableRow = Record<string, CellValue>;

export interface TableDetails {
  kind: 'table';
  /** DOM id (sorting/filter hooks, tests) */
  id?: string;
  caption?: string;
  columns: Column[];
  rows: TableRow[];
  /** a CSS class per row ('weak', 'err' or ''), aligned with rows */
  rowClasses?: string[];
  /** a text filter above the table */
  filter?: { placeholder: string; note?: string };
}

/** A chart: a spec in reports-template/charts/<spec>.vl.json plus the rows it draws. */
export interface ChartRef {
  kind: 'chart';
  spec: string;
  rows: Record<string, string | number | null>[];
  /** appended to the spec's subtitle (e.g. which tokenizer) */
  note?: string;
  /** shown instead of the chart when rows is empty */
  empty: string;
  /** the colour of each value of the chart's colour field (report/palette.ts): one colour per arm, mode, tokenizer, system across charts */
  color?: ChartColors;
}

export interface Tile {
  label: string;
  /** the headline value, already formatted */
  value: string | SafeHtml;
  sub: string | SafeHtml;
  provenance?: Provenance;
}

export type Block =
  | TableDetails
  | { kind: 'charts'; charts: ChartRef[] }
  | { kind: 'heading'; text: string; provenance?: Provenance /** DOM id (a link target) */; id?: string }
  | { kind: 'paragraph'; text: string | SafeHtml; muted?: boolean }
  | { kind: 'kv'; items: { label: string; value: string | SafeHtml }[] }
  | { kind: 'list'; items: (string | SafeHtml)[] }
  | { kind: 'details'; summary: string | SafeHtml; blocks: Block[] }
  | { kind: 'banner'; id?: string; tone: 'warn' | 'bad'; title: string; text: string | SafeHtml };

export interface SectionDetails {
  tiles?: Tile[];
  blocks: Block[];
}

/**
 * One unit of reporting (one file: pipeline/report/sections/<id>.ts or pipeline/<producer>/section.ts). `D` is the document it
 * reads: the bench report by default; a gate or compliance report, or a pair of systems, for
 * sections other issues add. `appliesTo` hides a section that has nothing to show.
 */
export interface ReportSection<D = never> {
  id: string;
  title: string;
  /** keys of the document's provenance map this section's numbers come from (first = header badge) */
  provenanceKeys: readonly string[];
  /**
   * where this section's data is described in the document's JSON Schema (a JSON pointer into
   * datasets/schemas/report.schema.json, or another schema file for other documents)
   */
  schemaRefs: readonly string[];
  /** 'bare': blocks only, no <section>/<h2> frame (page-level banners) */
  frame?: 'section' | 'bare';
  appliesTo?(doc: D): boolean;
  build(doc: D): SectionDetails;
  /**
   * The section's figures as terminal lines (the console summary of `bench`, report/summary.ts):
   * read from the document like `build`, never computed apart from it. Empty when nothing to say.
   */
  summary?(doc: D): string[];
}

/** A section plus the document it renders: the renderer draws any list of these. */
export interface SectionInput {
  section: ReportSection<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  doc: unknown;
  /** the document's provenance map (for the header badge), when it has one */
  provenance?: Record<string, Provenance>;
}

/** Bind a section to the document it renders (keeps D checked at the call site). */
export function sectionFor<D>(section: ReportSection<D>, doc: D, provenance?: Record<string, Provenance>): SectionInput {
  return { section, doc, provenance };
}

export function tablesOf(d: SectionDetails): TableDetails[] {
  const out: TableDetails[] = [];
  const walk = (bs: Block[]) => {
    for (const b of bs) {
      if (b.kind === 'table') out.push(b);
      else if (b.kind === 'details') walk(b.blocks);
    }
  };
  walk(d.blocks);
  return out;
}

export function chartsOf(d: SectionDetails): ChartRef[] {
  const out: ChartRef[] = [];
  const walk = (bs: Block[]) => {
    for (const b of bs) {
      if (b.kind === 'charts') out.push(...b.charts);
      else if (b.kind === 'details') walk(b.blocks);
    }
  };
  walk(d.blocks);
  return out;
}
