/**
 * Data the page carries for its script: JSON, gzip, base64, in a `<script>` data block the page
 * script unpacks with the browser's DecompressionStream (rows drawn on demand, render.ts; a
 * chart's spec and rows, charts.ts). Base64 holds no character HTML gives a meaning to, so no
 * report text can leave the block; gzip keeps the file small (a per-query table's rows repeat the
 * same names thousands of times). Deterministic: zlib writes no time into the header.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export function packRows(value: unknown): string {
  return gzipSync(JSON.stringify(value), { level: 9 }).toString('base64');
}

/** The inverse of packRows (tests read the page's packed data with it). */
export function unpackRows(base64: string): unknown {
  return JSON.parse(gunzipSync(Buffer.from(base64, 'base64')).toString('utf8'));
}

/** The MIME type of a packed block (not JavaScript: the browser never runs it). */
export const PACKED_ROWS_TYPE = 'application/gzip+base64';
