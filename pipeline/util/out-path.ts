/**
 * The up-front check of an output FILE (`comply --out FORMAT=PATH`, `--record FILE`,
 * `report --out FILE`): run before any work starts, so a path that can never be written is
 * "could not run as asked" (exit 2, one line naming the flag and the path), not a raw errno
 * after the whole run. Only checks; the writing itself is util/fs.ts.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../types.ts';

/**
 * `path` must be a regular file or absent, not on /proc, /sys or /dev, and the nearest folder
 * on its way that exists must be writable (missing folders in between are created by the writer). `label` starts the message: what the user typed, e.g. "--out html=r.html".
 */
export function assertOutputFile(path: string, label: string, exitCode = 2): void {
  const abs = resolve(path);
  const fail = (why: string): never => {
    throw new UserError(`${label}: ${why}`, exitCode);
  };
  if (/^\/(proc|sys|dev)(\/|$)/.test(abs)) fail(`a special file system (/${abs.split('/')[1]}), not an output file`);
  if (existsSync(abs)) {
    const st = statSync(abs);
    if (st.isDirectory()) fail('is a folder, expected a file name');
    if (!st.isFile()) fail('exists and is not a regular file');
  }
  // missing folders on the way are created by the writer: check the nearest one that exists
  let parent = dirname(abs);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) fail(`${parent} is not a folder`);
  try {
    accessSync(parent, constants.W_OK);
  } catch (e) {
    fail(`cannot write in ${parent} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Checks a list of (label, path) outputs, and that no two of them name the same file. */
export function assertOutputFiles(outs: ReadonlyArray<readonly [label: string, path: string]>, exitCode = 2): void {
  const seen = new Map<string, string>();
  for (const [label, path] of outs) {
    assertOutputFile(path, label, exitCode);
    const abs = resolve(path);
    const other = seen.get(abs);
    if (other !== undefined) throw new UserError(`${label}: the same file as ${other}; each output needs its own file`, exitCode);
    seen.set(abs, label);
  }
}
