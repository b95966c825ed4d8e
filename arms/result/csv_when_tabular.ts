/**
 * csv_when_tabular: RFC 4180 CSV (`csv-stringify` / `csv-parse`) of a tabular payload: a header
 * row with the keys of the first element, then one row per element. Other payloads are skipped
 * with the reason (the tabular rule, arms/tabular.ts).
 *
 * Typing convention (CSV itself has only text): null is an empty unquoted field; booleans are
 * `true`/`false`; numbers their JavaScript shortest form; a string is quoted whenever it would
 * otherwise read back as something else (empty, `true`, `false`, a number). Decoding reverses
 * exactly that: quoted fields are strings, unquoted empty is null, unquoted `true`/`false` are
 * booleans, unquoted numeric text is a number. Whatever this convention cannot carry shows up
 * as a failed round trip for that fixture.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ResultArm } from '../result-types.ts';
import { whyNotTabular } from '../tabular.ts';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** a string that, unquoted, would decode as something other than itself */
const readsAsOther = (s: string): boolean => s === '' || s === 'true' || s === 'false' || NUMBER.test(s);

function render(payload: unknown): string {
  const rows = payload as Array<Record<string, unknown>>;
  const columns = Object.keys(rows[0]);
  return stringify(rows, {
    header: true,
    columns,
    record_delimiter: 'unix',
    cast: {
      boolean: (b: boolean) => (b ? 'true' : 'false'),
      number: (n: number) => String(n),
      string: (s: string) => (s === '' ? { value: '', quoted_empty: true } : readsAsOther(s) ? { value: s, quoted: true } : s),
    },
  }).replace(/\n$/, '');
}

function decode(text: string): unknown {
  return parse(text, {
    columns: true,
    cast: (value: string, ctx: { header: boolean; quoting: boolean }) => {
      if (ctx.header || ctx.quoting) return value;
      if (value === '') return null;
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (NUMBER.test(value)) return Number(value);
      return value;
    },
  }) as unknown;
}

export const arm: ResultArm = {
  meta: {
    id: 'csv_when_tabular',
    description: 'CSV header + rows for tabular payloads only (csv-stringify/csv-parse)',
    library: 'csv-stringify, csv-parse',
  },
  skipReason: (payload, cls) => (cls === 'tabular' ? null : `not tabular: ${whyNotTabular(payload) ?? 'labelled non_tabular'}`),
  render,
  decode,
};
export default arm;
