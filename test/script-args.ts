/**
 * How a test starts one of its TypeScript helper scripts as a process of its own (a probe child,
 * a planted-bug gateway): `[process.execPath, ...scriptArgs(file), ...its args]`. The script runs
 * as a bundle made once per test process (scripts/lib/test-bundle.mjs scriptArgs), not through tsx.
 */
import { join } from 'node:path';
// @ts-expect-error the runner's helper is plain JS without types
import { scriptArgs as bundledScriptArgs } from '../scripts/lib/test-bundle.mjs';

const ROOT = join(import.meta.dirname, '..');

/** the node arguments before the script's own: its bundle (or tsx and the source when it cannot be bundled) */
export function scriptArgs(file: string): string[] {
  return bundledScriptArgs(ROOT, file) as string[];
}

/** the same as one command-line string (for a --proxy-cmd template); the paths hold no spaces or quotes */
export function scriptCommand(file: string): string {
  const args = scriptArgs(file);
  for (const a of args) if (/[\s'"\\$`]/.test(a)) throw new Error(`scriptCommand: ${a} needs quoting`);
  return ['node', ...args].join(' ');
}
