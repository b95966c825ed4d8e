/**
 * Secrets never reach a written artifact. Everything that records a command line, a target
 * description or an error message goes through here before it is written:
 *
 * - flags whose value is a secret (`--api-key K`, `--api-key=K`, `-H 'Authorization: …'`,
 *   `--header …`) keep the flag and lose the value;
 * - `NAME=value` words whose NAME looks like a credential (KEY, TOKEN, SECRET, PASSWORD, AUTH,
 *   CREDENTIAL, …), wherever they stand (a `--proxy-cmd` string, an upstream's env);
 * - `Authorization: <scheme> <value>`, `Bearer <value>`, `X-API-Key: <value>` shapes;
 * - credentials in URLs (user:password@, `?api_key=…`, `?token=…`);
 * - any literal value in `secrets` (the key the run actually used), wherever it appears.
 */

/** The one redaction mark of the project (comply, gate, bench, logs). */
export const REDACTED = '[redacted]';

/** Flags whose next word (or `=value`) is a secret. */
export const SECRET_FLAGS: readonly string[] = ['--api-key', '--token', '--password', '--secret'];
/** Flags whose value is a header line: redacted when the header is a credential. */
const HEADER_FLAGS: readonly string[] = ['-H', '--header'];

const SECRET_NAME = `[A-Za-z_][A-Za-z0-9_.-]*?(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|PASS|AUTH[A-Z]*|CREDENTIALS?|COOKIE|SESSION)[A-Za-z0-9_]*`;

const RULES: readonly [RegExp, string][] = [
  // NAME=value with a credential-shaped name (env words, config strings); value up to whitespace or quote
  [new RegExp(String.raw`\b(${SECRET_NAME})=("[^"]*"|'[^']*'|[^\s"'&]+)`, 'gi'), `$1=${REDACTED}`],
  // header shapes
  [/\b(authorization\s*[:=]\s*)(?:(bearer|basic|token|digest)\s+)?("[^"]*"|'[^']*'|[^\s"',;]+)/gi, `$1$2 ${REDACTED}`],
  [/\b(bearer\s+)(?!\[redacted\])[^\s"',;]+/gi, `$1${REDACTED}`],
  [/\b((?:x-)?api[-_]?key\s*:\s*)("[^"]*"|'[^']*'|[^\s"',;]+)/gi, `$1${REDACTED}`],
  // secret flags inside a larger text (e.g. a --proxy-cmd string)
  [new RegExp(String.raw`(${SECRET_FLAGS.join('|')})(=|\s+)("[^"]*"|'[^']*'|[^\s"']+)`, 'g'), `$1$2${REDACTED}`],
  // URL credentials
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, `$1${REDACTED}@`],
  [new RegExp(String.raw`([?&](?:${SECRET_NAME}|key|token|sig|signature|code)=)[^\s&#"']+`, 'gi'), `$1${REDACTED}`],
];

/** Redact secret-shaped substrings of one text, and every literal in `secrets`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = redactLiterals(text, secrets);
  for (const [re, to] of RULES) out = out.replace(re, to);
  // an Authorization value without scheme comes out of the header rule as "Authorization:  ***"
  return out.replace(/(authorization\s*[:=]\s*) +/gi, '$1');
}

/** Replace every occurrence of a known secret value (values shorter than 4 characters are ignored). */
export function redactLiterals(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

/** Redact a command line (argv words): secret flag values, header values, then every word's text. */
export function redactArgv(argv: readonly string[], secrets: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i];
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (SECRET_FLAGS.includes(flag)) {
      if (eq > 0) out.push(`${flag}=${REDACTED}`);
      else {
        out.push(w);
        if (i + 1 < argv.length) {
          out.push(REDACTED);
          i++;
        }
      }
      continue;
    }
    if (HEADER_FLAGS.includes(flag) && eq < 0 && i + 1 < argv.length) {
      out.push(w, redactHeader(argv[i + 1], secrets));
      i++;
      continue;
    }
    out.push(redactText(w, secrets));
  }
  return out;
}

/** `Name: value` header text: the value goes when the name is a credential header. */
export function redactHeader(header: string, secrets: readonly string[] = []): string {
  const m = /^\s*([^:]+):\s*(.*)$/s.exec(header);
  if (m && /auth|key|token|secret|cookie|session|pass/i.test(m[1])) return `${m[1]}: ${REDACTED}`;
  return redactText(header, secrets);
}

/**
 * Deep copy of a JSON-like value with secrets redacted in every string: the one redaction walker.
 * `literalOnly`: only the known secret values (redactLiterals), not the pattern rules (for data
 * such as tool descriptions, where a secret-looking pattern is content, not a credential); `keys`:
 * object keys too (comply redacts a secret echoed as a key). No secrets and literalOnly: the
 * value itself, uncopied.
 */
export function redactDeep<T>(value: T, secrets: readonly string[] = [], literalOnly = false, keys = false): T {
  if (literalOnly && secrets.length === 0) return value;
  const fix = (s: string) => (literalOnly ? redactLiterals(s, secrets) : redactText(s, secrets));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fix(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[keys ? fix(k) : k] = walk(x);
      return o;
    }
    return v;
  };
  return walk(value) as T;
}
