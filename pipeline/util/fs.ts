import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmdirSync, statSync, statfsSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { UserError } from '../types.ts';

/** Write a file atomically: temp file in the same folder, then rename. Nothing half-written. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Read and parse a JSON file; a missing file or malformed JSON is a one-line UserError naming the file. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(`${path}: cannot read file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UserError(`${path}: malformed JSON: ${(e as Error).message}`);
  }
}

/**
 * Move a fully written staging folder into place, replacing `dest` (two renames: a reader sees
 * the old folder or the new one, never a mix; if the second rename fails the old one is put back).
 */
export function publishDir(staging: string, dest: string): void {
  const old = `${dest}.old-${process.pid}-${Date.now()}`;
  if (existsSync(dest)) renameSync(dest, old);
  try {
    renameSync(staging, dest);
  } catch (e) {
    if (existsSync(old)) renameSync(old, dest);
    throw e;
  }
  rmSync(old, { recursive: true, force: true });
}

const errText = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${String(err.message).replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')}` : String(err?.message ?? e);
};

/**
 * Check before any work that an output folder can be (re)written as a whole: `dir` is a folder
 * or absent, and the folder that will hold it is writable (probed by creating and removing a
 * temp folder there, so read-only mounts and permissions show their real errno).
 * `flag` names the option in the message, e.g. "--out".
 */
export function assertWritableDir(dir: string, flag: string): void {
  const abs = resolve(dir);
  const fail = (why: string): never => {
    throw new UserError(`${flag} ${abs}: ${why}`);
  };
  if (existsSync(abs) && !statSync(abs).isDirectory()) fail('exists and is not a folder');
  // nearest existing ancestor: every missing level will be created in it
  let parent = dirname(abs);
  while (!existsSync(parent)) {
    const up = dirname(parent);
    if (up === parent) break;
    parent = up;
  }
  if (!statSync(parent).isDirectory()) fail(`${parent} is not a folder`);
  try {
    accessSync(parent, constants.W_OK);
    rmdirSync(mkdtempSync(join(parent, `.${basename(abs)}.probe-`)));
  } catch (e) {
    fail(`cannot write in ${parent} (${errText(e)})`);
  }
}

/** statfs magic numbers of kernel file systems no output belongs on (proc, sysfs, devpts, debugfs, cgroup, cgroup2, securityfs, tracefs, bpf). */
const SPECIAL_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x1cd1: 'devpts',
  0x64626720: 'debugfs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x73636673: 'securityfs',
  0x74726163: 'tracefs',
  0xcafe4a11: 'bpf',
};

/**
 * Check before any work that an output folder lies on an ordinary file system: not under /proc,
 * /sys or /dev and not on a kernel file system (statfs type), then that it can be written
 * (assertWritableDir). One line naming `flag`, thrown as a UserError with `exitCode`.
 */
export function assertOutputDir(dir: string, flag: string, exitCode = 2): void {
  const abs = resolve(dir);
  if (/^\/(proc|sys|dev)(\/|$)/.test(abs)) throw new UserError(`${flag} ${abs}: a special file system (/${abs.split('/')[1]}), not an output folder`, exitCode);
  let probe = abs;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  try {
    const kind = SPECIAL_FS[statfsSync(probe).type];
    if (kind) throw new UserError(`${flag} ${abs}: on a ${kind} file system, not an output folder`, exitCode);
  } catch (e) {
    if (e instanceof UserError) throw e;
  }
  try {
    assertWritableDir(abs, flag);
  } catch (e) {
    throw new UserError((e as Error).message, exitCode);
  }
}

/**
 * Write a set of files as one unit into `dir`: everything goes to a staging folder next to it,
 * then the staging folder replaces `dir` (publishDir). Entries of an existing `dir` that are not
 * part of the set are carried over. A failure removes the staging folder, leaves `dir` as it was,
 * and the error names the file (`flag` names the option, e.g. "--out").
 */
export function writeFileSet(dir: string, files: readonly { path: string; data: string | Uint8Array }[], flag: string): void {
  const abs = resolve(dir);
  mkdirSync(dirname(abs), { recursive: true });
  const staging = mkdtempSync(join(dirname(abs), `.${basename(abs)}.staging-`));
  try {
    for (const f of files) {
      const target = join(staging, f.path);
      try {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, f.data);
      } catch (e) {
        throw new UserError(`${flag} ${abs}: cannot write ${f.path} (${errText(e)}); the previous contents were left as they were`);
      }
    }
    const ours = new Set(files.map((f) => f.path.split('/')[0]));
    const carried = existsSync(abs) ? readdirSync(abs).filter((name) => !ours.has(name)) : [];
    for (const name of carried) renameSync(join(abs, name), join(staging, name));
    try {
      publishDir(staging, abs);
    } catch (e) {
      for (const name of carried) renameSync(join(staging, name), join(abs, name));
      throw new UserError(`${flag} ${abs}: cannot replace the folder (${errText(e)}); the previous contents were left as they were`);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
