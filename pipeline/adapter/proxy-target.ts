/**
 * Where a proxy under test is reached: `--proxy-cmd` (stdio, a command line) or `--proxy-url`
 * (streamable HTTP, with an optional API key). Shared by the live stage and the gate.
 */
import type { McpTarget } from '../mcp/client.ts';
import { UserError } from '../types.ts';

/** Split a command line like a POSIX shell would for simple quoting ('…', "…", backslash). */
export function splitCommandLine(line: string): string[] {
  return splitCommandWords(line).map((w) => w.text);
}

/** The same split, saying for each word whether any of it was quoted (a quoted placeholder stays one word). */
export function splitCommandWords(line: string): Array<{ text: string; quoted: boolean }> {
  const out: Array<{ text: string; quoted: boolean }> = [];
  let cur = '';
  let inWord = false;
  let quoted = false;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) out.push({ text: cur, quoted });
      cur = '';
      inWord = false;
      quoted = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      quoted = true;
      const j = line.indexOf("'", i + 1);
      if (j < 0) throw new UserError(`--proxy-cmd: unterminated single quote in ${JSON.stringify(line)}`);
      cur += line.slice(i + 1, j);
      i = j + 1;
    } else if (c === '"') {
      quoted = true;
      i++;
      for (;;) {
        if (i >= n) throw new UserError(`--proxy-cmd: unterminated double quote in ${JSON.stringify(line)}`);
        const d = line[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n && '"\\$`\n'.includes(line[i + 1])) {
          if (line[i + 1] !== '\n') cur += line[i + 1];
          i += 2;
          continue;
        }
        cur += d;
        i++;
      }
    } else if (c === '\\') {
      if (i + 1 < n) {
        if (line[i + 1] !== '\n') cur += line[i + 1];
        i += 2;
      } else i++;
    } else {
      cur += c;
      i++;
    }
  }
  if (inWord) out.push({ text: cur, quoted });
  return out;
}

/** `--proxy-cmd` text -> stdio target (leading NAME=value words are environment variables). */
export function commandTarget(line: string): McpTarget & { kind: 'stdio' } {
  const words = splitCommandLine(line);
  const env: Record<string, string> = {};
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const w = words.shift()!;
    const eq = w.indexOf('=');
    env[w.slice(0, eq)] = w.slice(eq + 1);
  }
  if (words.length === 0) throw new UserError(`--proxy-cmd: no command in ${JSON.stringify(line)}`);
  const [command, ...args] = words;
  return { kind: 'stdio', command: command === 'node' ? process.execPath : command, args, env };
}

/** `--proxy-url` (+ key) -> streamable-HTTP target; a bare origin gets `/mcp`. */
export function urlTarget(url: string, apiKey?: string): McpTarget & { kind: 'http' } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(`--proxy-url: not a valid URL: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UserError(`--proxy-url: must be http:// or https://, got ${JSON.stringify(url)}`);
  if (u.pathname === '' || u.pathname === '/') u.pathname = '/mcp';
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) {
    if (apiKey === '') throw new UserError('--api-key: empty value');
    headers['X-API-Key'] = apiKey;
    headers.Authorization = `Bearer ${apiKey}`;
  }
  return { kind: 'http', url: u.toString(), headers };
}
