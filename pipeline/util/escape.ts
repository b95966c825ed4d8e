/**
 * Text from a system under test (a server's or proxy's name and version, tool names and
 * descriptions, error messages, stderr lines, check details, URLs it returns) is data. One
 * escaping rule per output kind, applied to every such string where it reaches that output:
 *
 * - `md(s)`: markdown (GitHub-flavoured: summary.md, $GITHUB_STEP_SUMMARY, comply's markdown).
 *   The string renders as its literal text on one line, inside a table cell or not: it cannot
 *   open a link, image, HTML tag, code span, emphasis, table cell, heading, list, quote or a new
 *   line/block, nor a bare-URL autolink, an @mention, an issue reference or an emoji shortcode.
 * - `term(s)` / `termLine(s)`: a terminal (stdout, stderr, CI logs). Escape sequences (CSI, OSC
 *   such as OSC 8 hyperlinks) and C0/C1 controls are dropped, except `\n` and `\t`; `termLine`
 *   also folds `\n`/`\t` to a space, for a string that must stay within its line.
 * - `htmlText(s)`: HTML element content and attribute values (the dashboard's `html` tagged
 *   template escapes through it); `xml(s)`: XML (JUnit), the same plus the controls XML 1.0 forbids.
 *
 * The rule, character by character, and why: pipeline/util/README.md ("Escaping").
 */

/** ESC sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`, e.g. OSC 8 hyperlinks), DCS/SOS/PM/APC (`ESC P|X|^|_ … ST`), any other (`ESC` intermediates final, e.g. `ESC ( B`). Never across a line. */
const ESC_SEQ = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]/g;
/** C0 controls but `\t` `\n`, DEL, C1 controls, and the bidirectional overrides/isolates (text that reorders itself on screen). */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Terminal: drop escape sequences and control characters; `\n` and `\t` stay. */
export function term(s: unknown): string {
  return String(s ?? '')
    .replace(ESC_SEQ, '')
    .replace(CONTROLS, '');
}

/** Terminal, one line: `term`, with `\n` and `\t` (and a CR-LF) folded to one space. */
export function termLine(s: unknown): string {
  return String(s ?? '')
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(ESC_SEQ, '')
    .replace(CONTROLS, '');
}

/** U+2060 WORD JOINER: invisible, breaks what GitHub links after markdown is rendered (mentions, references, emoji, bare URLs). */
const WJ = '\u2060';

/**
 * Markdown (GFM): the literal text, inline, on one line. Whitespace runs (newlines included) are
 * one space; controls and escape sequences are dropped; `&` `<` `>` become entities; every other
 * character markdown gives a meaning to inline is backslash-escaped; a bare URL, `www.`, `@name`,
 * `#123` and `:shortcode:` get an invisible U+2060 so that GitHub does not link or replace them.
 */
export function md(s: unknown): string {
  const flat = String(s ?? '')
    .replace(ESC_SEQ, '')
    .replace(/[\s\u2028\u2029]+/g, ' ')
    .replace(CONTROLS, '')
    .trim();
  return flat
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
    .replace(/:(?=[\w+-]+:)/g, `:${WJ}`)
    .replace(/[\\`*_[\]!|~#$]/g, '\\$&')
    .replace(/:\/\//g, `:${WJ}//`)
    .replace(/\b(www)\./gi, `$1${WJ}.`)
    .replace(/@(?=\w)/g, `@${WJ}`)
    .replace(/\\#(?=\w)/g, `\\#${WJ}`)
    .replace(/^([-+=]|\d+(?=[.)]))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}

const HTML_ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML element content and attribute values: `& < > " '` as entities. */
export function htmlText(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => HTML_ESC[c]);
}

/** XML 1.0 (JUnit): `htmlText`, and the controls XML forbids dropped (C0 but tab, LF, CR). */
export function xml(s: unknown): string {
  return htmlText(s).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '');
}
