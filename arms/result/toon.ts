/**
 * toon: TOON (Token-Oriented Object Notation) via `@toon-format/toon`, default options (2-space
 * indent, comma delimiter). Uniform arrays of flat objects become one `[N]{a,b}:` header plus a
 * row per element; other values use TOON's indented object / list form. Decoded with the same
 * package's `decode` (strict mode).
 */
import { decode, encode } from '@toon-format/toon';
import type { ResultArm } from '../result-types.ts';

export const arm: ResultArm = {
  meta: { id: 'toon', description: 'TOON (@toon-format/toon, default options)', library: '@toon-format/toon' },
  skipReason: () => null,
  render: (payload) => encode(payload),
  decode: (text) => decode(text) as unknown,
};
export default arm;
