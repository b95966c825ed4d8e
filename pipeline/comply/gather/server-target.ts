/** Target parsing (URL or stdio command), env/env-file, auth headers, and secret scrubbing. */
import { UserError } from '../../types.ts';
import { REDACTED } from '../../util/redact.ts';
import type { StdioTarget } from '../wire/stdio.ts';
import { isInputRefusal, readInputText } from '../../util/fs.ts';

export type Target = { kind: 'http'; url: string; headers: Record<string, string> } | ({ kind: 'stdio' } & StdioTarget);

export interface TargetFlags {
  header?: string[];
  auth?: string;
  env?: string[];
  envFile?: string;
  cwd?: string;
}

/** The target flags out of a commander options object (`comply` and `comply benchmark` share them). */
export function targetFlagsOf(o: Record<string, unknown>): TargetFlags {
  return {
    header: o.header as string[] | undefined,
    auth: o.auth as string | undefined,
    env: o.env as string[] | undefined,
    envFile: o.envFile as string | undefined,
    cwd: o.cwd as string | undefined,
  };
}

function kv(flag: string, s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  if (i <= 0)
    throw new UserError(
      `${flag}: expected ${sep === '=' ? 'KEY=VALUE' : '"Name: value"'} (got ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s.replace(/[:=].*/, '…'))})`,
    );
  return [s.slice(0, i).trim(), s.slice(i + 1).trim()];
}

export function parseEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readInputText(path, 'a KEY=VALUE file');
  } catch (e) {
    if (isInputRefusal(e)) throw new UserError(`--env-file ${e.message}`, 2);
    throw new UserError(`--env-file ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const out: Record<string, string> = {};
  text
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .forEach((line, i) => {
      const t = line.trim();
      if (!t || t.startsWith('#')) return;
      const eq = t.indexOf('=');
      if (eq <= 0) throw new UserError(`--env-file ${path}:${i + 1}: expected KEY=VALUE`);
      let v = t.slice(eq + 1).trim();
      if (/^(["']).*\1$/.test(v)) v = v.slice(1, -1);
      out[t.slice(0, eq).trim()] = v;
    });
  return out;
}

export function parseTarget(words: string[], f: TargetFlags): Target {
  if (!words.length) throw new UserError('comply: no target (a URL, or -- followed by a server command)');
  if (/^https?:\/\//i.test(words[0])) {
    if (words.length > 1) throw new UserError(`comply: a URL target takes no extra arguments (got ${JSON.stringify(words[1])})`);
    try {
      new URL(words[0]);
    } catch {
      throw new UserError(`comply: invalid URL ${JSON.stringify(words[0])}`);
    }
    const headers: Record<string, string> = {};
    for (const h of f.header ?? []) {
      const [k, v] = kv('-H', h, ':');
      headers[k] = v;
    }
    if (f.auth !== undefined) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'authorization') delete headers[k];
      headers.Authorization = f.auth;
    }
    if (f.env?.length || f.envFile || f.cwd) throw new UserError('comply: -E/--env-file/--cwd apply to stdio targets only');
    return { kind: 'http', url: words[0], headers };
  }
  if (f.header?.length || f.auth !== undefined) throw new UserError('comply: -H/--auth apply to HTTP targets only');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  if (f.envFile) Object.assign(env, parseEnvFile(f.envFile));
  for (const e of f.env ?? []) {
    const [k, v] = kv('-E', e, '=');
    env[k] = v;
  }
  return { kind: 'stdio', command: words[0], args: words.slice(1), env, cwd: f.cwd };
}

/** Values that must never appear in any output: header values the user passed, -E/--env-file values. */
export function secretsOf(t: Target, f: TargetFlags): string[] {
  const out: string[] = [];
  if (t.kind === 'http') {
    for (const v of Object.values(t.headers)) {
      out.push(v);
      const tok = v.replace(/^(bearer|basic|token)\s+/i, '');
      if (tok !== v) out.push(tok);
    }
  } else {
    const explicit = { ...(f.envFile ? parseEnvFile(f.envFile) : {}) };
    for (const e of f.env ?? []) explicit[e.slice(0, e.indexOf('='))] = e.slice(e.indexOf('=') + 1);
    out.push(...Object.values(explicit));
  }
  return out.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

export function describeTarget(t: Target): string {
  return t.kind === 'http' ? t.url : `stdio:${[t.command, ...t.args].join(' ')}`;
}

export function redactHeaders(secrets: readonly string[]): (h: Record<string, string>) => Record<string, string> {
  return (h) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k, k.toLowerCase() === 'authorization' || secrets.includes(v) ? REDACTED : v]));
}
