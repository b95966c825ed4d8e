/** Output formats as data: format name -> renderer. */
import type { ComplyReport } from '../types.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { renderSarif } from './sarif.ts';
import { renderTerminal } from './terminal.ts';

export const FORMATS = {
  terminal: (r: ComplyReport, verbose: boolean) => renderTerminal(r, verbose),
  json: (r: ComplyReport) => `${JSON.stringify(r, null, 2)}\n`,
  sarif: (r: ComplyReport) => renderSarif(r),
  junit: (r: ComplyReport) => renderJunit(r),
  markdown: (r: ComplyReport) => renderMarkdown(r),
  html: (r: ComplyReport) => renderHtml(r),
} as const satisfies Record<string, (r: ComplyReport, verbose: boolean) => string | Promise<string>>;
export type Format = keyof typeof FORMATS;

export function isFormat(s: string): s is Format {
  return s in FORMATS;
}
