/**
 * Placeholders in proxy command templates and config templates.
 *
 * `{NAME}` or `{NAME:role}` (role = one of several upstreams, e.g. `{FIXTURE_URL:hang}`).
 * Values are strings or argv arrays. In a command template the line is split into words first
 * (simple shell quoting); an unquoted word that is exactly one argv placeholder expands into
 * several words, a quoted one (`"{FIXTURE_CMD}"`) stays one shell-quoted word, any other
 * placeholder is replaced inside its word. In a config template (JSON text), names
 * ending in `_JSON` are inserted as they are (they hold JSON), every other value is JSON-escaped
 * so it can sit inside a JSON string. An unknown placeholder is a one-line error.
 */
import { redactLiterals } from '../util/redact.ts';
import { UserError } from '../types.ts';
import { splitCommandWords } from './proxy-target.ts';

export type PlaceholderValues = Record<string, string | readonly string[]>;

const PLACEHOLDER = /\{([A-Z][A-Z0-9_]*(?::[a-z0-9_-]+)?)\}/g;

/** Shell-quote one word when needed (for display and for argv values inside a text context). */
export function shellQuote(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

function lookup(values: PlaceholderValues, key: string, where: string): string | readonly string[] {
  const v = values[key];
  if (v === undefined) {
    const known = Object.keys(values)
      .sort()
      .map((k) => `{${k}}`)
      .join(' ');
    throw new UserError(`${where}: unknown placeholder {${key}} (known: ${known})`);
  }
  return v;
}

/** The placeholders a template uses (for checks before launching). */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** Fill a command template into argv words. */
export function fillCommand(template: string, values: PlaceholderValues, where = '--proxy-cmd'): string[] {
  const out: string[] = [];
  for (const { text: word, quoted } of splitCommandWords(template)) {
    const whole = /^\{([A-Z][A-Z0-9_]*(?::[a-z0-9_-]+)?)\}$/.exec(word);
    // an unquoted word that is exactly an argv placeholder expands into several words; quoted
    // ("{FIXTURE_CMD}") it stays one word, the argv shell-quoted (as a shell would keep it)
    if (whole && !quoted) {
      const v = lookup(values, whole[1], where);
      if (Array.isArray(v)) {
        out.push(...v);
        continue;
      }
    }
    out.push(
      word.replace(PLACEHOLDER, (_m, key: string) => {
        const v = lookup(values, key, where);
        return Array.isArray(v) ? shellLine(v) : (v as string);
      }),
    );
  }
  return out;
}

/** Fill a JSON config template; the result must parse as JSON (checked by the caller's loader). */
export function fillConfig(template: string, values: PlaceholderValues, where: string): string {
  return template.replace(PLACEHOLDER, (_m, key: string) => {
    const v = lookup(values, key, where);
    const s = Array.isArray(v) ? shellLine(v) : (v as string);
    if (key.split(':')[0].endsWith('_JSON')) return s;
    return JSON.stringify(s).slice(1, -1);
  });
}

/** Replace every occurrence of the given secrets (API keys) by the redaction mark (logs and evidence never carry them). */
export function redact(text: string, secrets: readonly string[]): string {
  return redactLiterals(text, secrets);
}

/** Fill placeholders in plain text (a URL template). */
export function fillText(template: string, values: PlaceholderValues, where: string): string {
  return template.replace(PLACEHOLDER, (_m, key: string) => {
    const v = lookup(values, key, where);
    return Array.isArray(v) ? shellLine(v) : (v as string);
  });
}
