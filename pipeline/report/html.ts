/**
 * HTML escaped by construction. `html\`...\`` is the only way to make markup: every
 * interpolated value is escaped unless it is already a `SafeHtml` (made by `html` itself, by
 * the renderer from escaped parts, or by `trustedHtml` for output of a trusted generator such as
 * vega's SVG writer). Arrays are joined, `null`/`undefined`/`false` render as nothing.
 */
import { htmlText } from '../util/escape.ts';

/** HTML-escape any text (element content and attribute values): the HTML rule of util/escape.ts. */
export const esc = htmlText;

const BRAND = Symbol('SafeHtml');

/** A fragment that is safe to insert as-is. Construct with `html` (or `trustedHtml`). */
export class SafeHtml {
  readonly [BRAND] = true;
  private constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
  /** internal: used by `html` and `trustedHtml` only */
  static of(value: string): SafeHtml {
    return new SafeHtml(value);
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function part(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(part).join('');
  return esc(v);
}

/** Tagged template: literal parts are trusted, interpolations are escaped unless SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return SafeHtml.of(out);
}

/** Text or a fragment -> a fragment (text escaped). */
export function toHtml(v: HtmlValue): SafeHtml {
  return v instanceof SafeHtml ? v : SafeHtml.of(part(v));
}

/** Join fragments with a (literal) separator. */
export function joinHtml(parts: readonly HtmlValue[], sep: string): SafeHtml {
  return SafeHtml.of(parts.map(part).join(sep));
}

/**
 * Markup from a trusted generator (vega's SVG writer, which escapes every text it draws).
 * Never pass report text here. `why` documents the trust at the call site.
 */
export function trustedHtml(markup: string, why: string): SafeHtml {
  if (!why) throw new Error('trustedHtml needs a reason');
  return SafeHtml.of(markup);
}
