/**
 * One visual language for the dashboard: every arm, mode (full/compact), tokenizer and system
 * (and live response component) has one colour, the same in every chart that shows it, and the kinds do not share colours
 * (an orange bar never means compact_json in one chart and o200k_base in the next). Sections
 * attach the mapping to their ChartRef (`color`); the chart renderer writes it into the spec's
 * colour scale. Arms take their colour in the order the report lists them (registry order), so
 * a run with fewer arms keeps the colours of the arms it has only when they come first; systems in
 * the order of the report's systems and scale sections (as their tables list them).
 */
import type { Report } from './types.ts';

/** Tableau-20 style colours, split by kind so no two kinds share one. */
const ARM_COLORS = ['#4c78a8', '#f58518', '#e45756', '#54a24b', '#b79a20', '#439894', '#9e765f', '#d67195'];
const MODE_COLORS: Record<string, string> = { full: '#7b4fa0', compact: '#2ca6a4' };
const TOKENIZER_COLORS: Record<string, string> = { cl100k_base: '#5a6b7b', o200k_base: '#c9a227' };
const SYSTEM_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const COMPONENT_COLORS: Record<string, string> = {
  input_schemas: '#8da0cb',
  descriptions: '#a6d854',
  usage_instructions: '#ffd92f',
  metadata: '#e5c494',
  other: '#b3b3b3',
};
const FALLBACK = '#79706e';

export type ColorKind = 'arm' | 'mode' | 'tokenizer' | 'system' | 'component';

export interface Palette {
  of(kind: ColorKind, id: string): string;
}

/** The report's palette (deterministic for a report). */
export function paletteOf(r: Pick<Report, 'arms' | 'systems' | 'scale'>): Palette {
  const arms: string[] = [];
  for (const a of r.arms) if (!arms.includes(a.arm)) arms.push(a.arm);
  const systems: string[] = [];
  for (const s of [...(r.systems ?? []), ...(r.scale?.systems ?? [])]) if (!systems.includes(s.name)) systems.push(s.name);
  return {
    of(kind, id) {
      if (kind === 'mode') return MODE_COLORS[id] ?? FALLBACK;
      if (kind === 'tokenizer') return TOKENIZER_COLORS[id] ?? FALLBACK;
      if (kind === 'component') return COMPONENT_COLORS[id] ?? FALLBACK;
      if (kind === 'arm') {
        const i = arms.indexOf(id);
        return i >= 0 ? ARM_COLORS[i % ARM_COLORS.length] : FALLBACK;
      }
      const i = systems.indexOf(id);
      return i >= 0 ? SYSTEM_COLORS[i % SYSTEM_COLORS.length] : SYSTEM_COLORS[(systems.length + hash(id)) % SYSTEM_COLORS.length];
    },
  };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

/** The colour scale of a chart's colour field: each distinct value with its colour. */
export interface ChartColors {
  /** the data field the colour encodes */
  field: string;
  domain: string[];
  range: string[];
  /** what kind of thing each value names (tests hold one colour per thing across charts) */
  kinds: { kind: ColorKind; id: string }[];
}

/** The colours of `field` over `rows`, each value naming one (kind, id). */
export function chartColors(
  rows: readonly Record<string, unknown>[],
  field: string,
  name: (v: string) => { kind: ColorKind; id: string },
  p: Palette,
): ChartColors {
  const domain: string[] = [];
  for (const row of rows) {
    const v = row[field];
    if (typeof v === 'string' && !domain.includes(v)) domain.push(v);
  }
  const kinds = domain.map(name);
  return { field, domain, range: kinds.map((k) => p.of(k.kind, k.id)), kinds };
}

/** Colours of a field whose values are ids of one kind (arm ids, tokenizer names, modes, systems). */
export function colorsBy(
  r: Pick<Report, 'arms' | 'systems' | 'scale'>,
  rows: readonly Record<string, unknown>[],
  field: string,
  kind: ColorKind,
): ChartColors {
  return chartColors(rows, field, (id) => ({ kind, id }), paletteOf(r));
}

/** An economics row's `arm`: a listing arm, or the live proxy's mode (proxy_full, proxy_compact). */
export function armOrMode(id: string): { kind: ColorKind; id: string } {
  const mode = /^proxy_(full|compact)$/.exec(id);
  return mode ? { kind: 'mode', id: mode[1] } : { kind: 'arm', id };
}
