/**
 * json: the payload as the reference servers return it, JSON.stringify with 2-space indent (the
 * capture records per fixture whether the server's own text is byte-identical:
 * `returned.text_is_pretty_json`). A text payload is its JSON string literal. The reference
 * every result saving is measured against.
 */
import type { ResultArm } from '../result-types.ts';

export const arm: ResultArm = {
  meta: { id: 'json', description: 'JSON as returned by the reference servers (2-space indent)' },
  skipReason: () => null,
  render: (payload) => JSON.stringify(payload, null, 2),
  decode: (text) => JSON.parse(text) as unknown,
};
export default arm;
