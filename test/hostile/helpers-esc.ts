/**
 * What a reader sees of the hostile payload of servers/esc-server.mjs: checks that a markdown
 * file or a terminal stream carries no link, image, HTML, code span, table break, new line or
 * escape sequence of the payload's own, and that the payload's literal text is still visible.
 */
import assert from 'node:assert/strict';

/** The payload of servers/esc-server.mjs (the same string; the server cannot be imported by TypeScript tests without a build). */
export const EVIL =
  '**gate: APPROVED** [APPROVED](http://127.0.0.1:9/ok) ![px](http://127.0.0.1:9/px.gif) <img src=x> <script>alert(1)</script> a|b `tick`\n# NL \x1b]8;;http://127.0.0.1:9/osc\x07osclabel\x1b]8;;\x07 \x1b[2J\x1b[31mRED\r';

/** The part of the payload that survives on one line as text (what a reader must still be able to read). */
export const VISIBLE =
  '**gate: APPROVED** [APPROVED](http://127.0.0.1:9/ok) ![px](http://127.0.0.1:9/px.gif) <img src=x> <script>alert(1)</script> a|b `tick`';

/** Markdown with every backslash escape (a backslash before ASCII punctuation) taken out: what is left is live markup. */
function live(text: string): string {
  return text.replace(/\\[!-/:-@[-`{-~]/g, '');
}

/** Markdown as the reader sees its text: escapes resolved, entities decoded, the invisible U+2060 gone. */
export function rendered(text: string): string {
  return text
    .replace(/\u2060/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The markdown carries no markup of the payload: no image, no HTML, no link but `ownLinks`
 * (our own, removed before the check), no code span, no emphasis from the payload, no bare
 * payload URL (GitHub autolinks), no `a|b` cell break, no line the payload's newline opened, no
 * control character; and the payload's text is still visible. `where` names the file.
 */
export function assertInertMarkdown(text: string, where: string, ownLinks: RegExp): void {
  assert.ok(text.includes('APPROVED'), `${where}: the payload reached the file (else this test proves nothing)`);
  assert.deepEqual(markdownProblems(text, ownLinks), [], `${where}: the payload is live markdown`);
}

/** Every way the payload is live in the markdown (empty: none); each names the attack. */
export function markdownProblems(text: string, ownLinks: RegExp): string[] {
  const l = live(text).replace(ownLinks, '');
  const p: string[] = [];
  if (l.includes('![')) p.push(`an image: ${around(l, '![')}`);
  if (l.includes('](')) p.push(`a link: ${around(l, '](')}`);
  if (/<[A-Za-z/!?]/.test(l)) p.push(`raw HTML: ${around(l, '<')}`);
  if (l.includes('`')) p.push(`a code span: ${around(l, '`')}`);
  if (l.includes('**gate')) p.push(`the payload's bold "gate: APPROVED"`);
  if (l.includes('a|b')) p.push(`the payload's | opens a table cell`);
  if (/https?:\/\/127\.0\.0\.1/.test(l)) p.push('a bare payload URL (GitHub autolinks it)');
  if (/^\s*(?:\\?# )?NL\b/m.test(text)) p.push("the payload's newline opened a line");
  if (/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(text)) p.push('a control character or ESC byte');
  if (!rendered(text).includes(VISIBLE)) p.push("the payload's literal text is not visible as text");
  return p;
}

/** A terminal stream: no ESC, no C0 control but \n and \t, no C1; the OSC 8 label and the payload text still visible; the payload's newline opened no line. */
export function assertInertTerminal(text: string, where: string): void {
  assert.ok(text.includes('APPROVED'), `${where}: the payload reached the stream (else this test proves nothing)`);
  const bad = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(text);
  assert.equal(
    bad,
    null,
    `${where}: control character U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad?.index}: ${JSON.stringify(text.slice(Math.max(0, (bad?.index ?? 0) - 60), (bad?.index ?? 0) + 20))}`,
  );
  assert.ok(text.includes(VISIBLE.slice(0, 52)), `${where}: the payload's literal text is not visible`);
  assert.doesNotMatch(text, /^\s*# NL/m, `${where}: the payload's newline opened a line`);
}

function around(s: string, what: string): string {
  const i = s.indexOf(what);
  return JSON.stringify(s.slice(Math.max(0, i - 80), i + 40));
}
