/** json_compact: the payload minified (JSON.stringify without whitespace, key order as returned). */
import type { ResultArm } from '../result-types.ts';

export const arm: ResultArm = {
  meta: { id: 'json_compact', description: 'minified JSON (no whitespace), key order as returned' },
  skipReason: () => null,
  render: (payload) => JSON.stringify(payload),
  decode: (text) => JSON.parse(text) as unknown,
};
export default arm;
