/**
 * The `--system` kinds, in the order SPECs are matched and help lists them. A new kind: one file
 * here exporting its `SystemKindEntry` plus one line in SYSTEM_KINDS, plus its name in the report
 * schema's `$defs/system_kind` enum (test/systems/kinds.test.ts fails when the two differ or a
 * file is not listed).
 */
import { directKind } from './direct.ts';
import { referenceKind } from './reference.ts';
import { cmdKind } from './cmd.ts';
import { urlKind } from './url.ts';
import { presetKind } from './preset.ts';
import type { SystemKindEntry } from '../types.ts';

export const SYSTEM_KINDS = [directKind, referenceKind, cmdKind, urlKind, presetKind] as const;

type Entry = (typeof SYSTEM_KINDS)[number];
export type SystemKind = Entry['kind'];

type OptionsOf<E> = E extends SystemKindEntry<string, infer O> ? O : never;
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** One parsed `--system` value: name, kind, SPEC text, and the options of its kind (each kind's own fields, set only on that kind). */
export type SystemSpec = { name: string; kind: SystemKind; spec: string } & Partial<Intersect<OptionsOf<Entry>>>;

/** The entry of a parsed spec's kind (its functions take the spec as parsed by that entry). */
export function systemKind(kind: string): SystemKindEntry<string, any> {
  const k = (SYSTEM_KINDS as readonly SystemKindEntry<string, any>[]).find((e) => e.kind === kind);
  if (!k) throw new Error(`unknown system kind ${JSON.stringify(kind)}`);
  return k;
}
