/**
 * Which presets there are: the files of datasets/presets/ (a `<name>.config.json` beside them is a
 * proxy's config template, not a preset). Apart from `preset-file.ts` (which loads and checks one)
 * so that help text can list them without loading the schema validator.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../constants.ts';

// REPO_ROOT, not import.meta.url: the same path from the sources and from the compiled dist/
export const PRESETS_DIR = join(REPO_ROOT, 'datasets', 'presets');

/** The committed preset names, sorted. */
export function presetNames(): string[] {
  return readdirSync(PRESETS_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.config.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}
