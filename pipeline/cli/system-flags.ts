/**
 * CLI side of side-by-side systems and the scale sweep: the flags `mcpgauge bench --live`
 * accepts for them, validated into options before anything runs. The stage that runs them is
 * `pipeline/bench/systems-stage.ts` (bench sits above systems/ and scale/).
 */
import { resolve } from 'node:path';
import { Option } from 'commander';
import { UserError } from '../types.ts';
import { DEFAULT_CORPUS } from '../constants.ts';
import type { SystemRunOptions } from '../bench/systems-stage.ts';
import { parseSystems, SYSTEM_SYNTAXES } from '../systems/spec.ts';
import { SCALE_DEFAULTS } from '../scale/defaults.ts';

/** Checks a value at parse time (the UserError names the flag) and keeps the string; `flags` below re-reads it. */
function checked(flags: string, description: string, check: (v: string) => unknown, dflt?: string): Option {
  const o = new Option(flags, description).argParser((v: string) => {
    check(v);
    return v;
  });
  return dflt === undefined ? o : o.default(dflt);
}
const collectSpecs = (v: string, prev: string[] = []) => {
  parseSystems([v]);
  return [...prev, v];
};

/** The commander options `mcpgauge bench` takes for systems and the scale sweep (checked as parsed). */
export function systemOptions(): Option[] {
  return [
    new Option('--system <spec>', `measure this system side by side (repeatable): NAME=SPEC, SPEC = ${SYSTEM_SYNTAXES.join(' | ')}`)
      .argParser(collectSpecs)
      .default([]),
    checked(
      '--scale <sizes>',
      'cost growth vs catalog size: comma list of catalog sizes (e.g. 10,100,1000,5000); systems default to direct and reference',
      (v) => scaleSizes(v),
    ),
    new Option(
      '--catalog-from <file>',
      'corpus the scale catalogs are sampled from (real tool definitions, renamed past its size)',
    ).default(DEFAULT_CORPUS),
    checked(
      '--page-size <n>',
      'tools/list page size of the scale catalog fixture (the client must page)',
      (v) => posInt(v, '--page-size', 1),
      String(SCALE_DEFAULTS.pageSize),
    ),
    checked(
      '--scale-queries <n>',
      'the first N golden queries form the fixed scale query set',
      (v) => posInt(v, '--scale-queries', 1),
      String(SCALE_DEFAULTS.queryCount),
    ),
    checked(
      '--point-timeout <ms>',
      'deadline of one (system, catalog size) point; a late point is recorded as failed and the sweep goes on',
      (v) => posInt(v, '--point-timeout', 1),
      String(SCALE_DEFAULTS.pointTimeoutMs),
    ),
  ];
}

function posInt(v: unknown, flag: string, min: number): number {
  const s = String(v).trim();
  if (!/^\d+$/.test(s) || Number(s) < min || !Number.isSafeInteger(Number(s)))
    throw new UserError(`${flag} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return Number(s);
}

function scaleSizes(v: string): number[] {
  const sizes = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => posInt(x, '--scale', 1));
  if (sizes.length === 0) throw new UserError('--scale needs a comma list of catalog sizes, e.g. 10,100,1000');
  if (new Set(sizes).size !== sizes.length) throw new UserError(`--scale: a size is listed twice (${v})`);
  if (Math.max(...sizes) > 100_000) throw new UserError(`--scale: sizes above 100000 are not supported (got ${Math.max(...sizes)})`);
  return sizes;
}

/** commander options (camelCase) -> what to run; a bad value is a one-line UserError. */
export function systemOptionsFromFlags(flags: Record<string, unknown>): SystemRunOptions {
  const given = (flags.system as string[] | undefined) ?? [];
  const out: SystemRunOptions = {};
  if (flags.scale === undefined && given.length === 0) return out;
  if (!flags.live) throw new UserError(`${given.length ? '--system' : '--scale'} needs --live (systems are measured over MCP)`);
  if (flags.proxyUrl !== undefined || flags.proxyCmd !== undefined)
    throw new UserError('--system/--scale replace --proxy-url/--proxy-cmd: give those as --system url:URL or --system cmd:COMMAND');
  const systems = parseSystems(given.length ? given : ['direct', 'reference']);
  if (given.length) out.systems = systems;
  if (flags.scale !== undefined) {
    const sizes = scaleSizes(String(flags.scale));
    out.scale = {
      sizes,
      catalogFrom: resolve(String(flags.catalogFrom ?? DEFAULT_CORPUS)),
      pageSize: posInt(flags.pageSize ?? SCALE_DEFAULTS.pageSize, '--page-size', 1),
      queryCount: posInt(flags.scaleQueries ?? SCALE_DEFAULTS.queryCount, '--scale-queries', 1),
      pointTimeoutMs: posInt(flags.pointTimeout ?? SCALE_DEFAULTS.pointTimeoutMs, '--point-timeout', 1),
    };
    out.systems ??= systems;
  }
  return out;
}
