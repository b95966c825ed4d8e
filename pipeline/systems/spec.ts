/**
 * `--system NAME=SPEC` (repeatable): the systems one run measures side by side. The SPEC kinds
 * are the registry kinds/index.ts (one file each; their forms in pipeline/systems/README.md); a
 * SPEC goes to the first kind that accepts it. NAME defaults to the kind's default (the kind, or
 * the preset's name); names are unique.
 */
import { UserError } from '../types.ts';
import { SYSTEM_KINDS, type SystemKind, type SystemSpec } from './kinds/index.ts';

export type { SystemKind, SystemSpec };
export { PRESET_SYSTEM_KEYS } from './kinds/preset.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const SPEC_START = new RegExp(`^(${SYSTEM_KINDS.map((k) => k.start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`);

/** The SPEC syntaxes, as `--help` and errors list them. */
export const SYSTEM_SYNTAXES: readonly string[] = SYSTEM_KINDS.map((k) => k.syntax);

/** One `--system` value. */
export function parseSystemSpec(arg: string): SystemSpec {
  const raw = arg.trim();
  let name: string | undefined;
  let spec = raw;
  const eq = raw.indexOf('=');
  if (eq > 0 && !SPEC_START.test(raw) && NAME.test(raw.slice(0, eq))) {
    name = raw.slice(0, eq);
    spec = raw.slice(eq + 1).trim();
  }
  const where = `--system ${JSON.stringify(arg)}`;
  const kind = SYSTEM_KINDS.find((k) => k.accepts(spec));
  if (kind) return kind.parse(spec, name, where) as SystemSpec;
  throw new UserError(
    `${where}: unknown system spec ${JSON.stringify(spec)} (valid: ${SYSTEM_SYNTAXES.join(', ')}, each optionally NAME=...)`,
  );
}

/** Every `--system` value; names must be unique (give NAME= to tell two of a kind apart). */
export function parseSystems(args: readonly string[]): SystemSpec[] {
  const out = args.map(parseSystemSpec);
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.name))
      throw new UserError(`--system: two systems named ${JSON.stringify(s.name)}; name them, e.g. --system a=${s.spec} --system b=...`);
    seen.add(s.name);
  }
  if (out.length === 0) throw new UserError('--system: no system given');
  return out;
}
