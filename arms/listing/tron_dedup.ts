/**
 * tron_dedup: schemas deduplicated into named classes (the predecessor's in-house "TRON-style"
 * arm, research note mcpproxy-bench §3.7; not the full TRON notation).
 * - One tool = `name|description` plus `|<canonical schema>` when it has one (standalone form).
 * - Listing: each distinct canonical schema becomes a class `C` + first 8 hex digits of
 *   SHA-256(canonical bytes), declared once as `class <C…> = <canonical schema>` in order of first
 *   appearance; entries are `name|description|<C…>` (or `name|description` without a schema).
 *   Output = class lines joined by "\n", a blank line, then entries joined by a blank line
 *   (no preamble when no tool has a schema).
 * - Two different schemas with the same class name are a collision: an ArmEncodeError naming the
 *   second tool (runArm skips that tool and renders the listing again). With 32-bit names this is
 *   expected in very large corpora (about 25% chance at 50,000 distinct schemas).
 * - The index sees `params` = `{"$class":"C…"}`: the schema text leaves the index.
 * `|` and newlines inside names/descriptions are not escaped (as in the predecessor).
 */
import type { Arm } from '../types.ts';
import { ArmEncodeError } from '../errors.ts';
import { canonicalSchema, hasSchema } from '../schema.ts';
import { sha256Hex } from '../../pipeline/corpus/canonical.ts';
import type { ToolRecord } from '../../pipeline/types.ts';

const ID = 'tron_dedup';

/** Class name of a canonical schema text. */
export function className(canonical: string): string {
  return `C${sha256Hex(canonical).slice(0, 8)}`;
}

function renderTool(tool: ToolRecord): string {
  const head = `${tool.tool}|${tool.description}`;
  return hasSchema(tool) ? `${head}|${canonicalSchema(ID, tool)}` : head;
}

function renderListing(tools: readonly ToolRecord[]): string {
  const classes = new Map<string, string>(); // class name -> canonical schema
  const preamble: string[] = [];
  const entries: string[] = [];
  for (const tool of tools) {
    const head = `${tool.tool}|${tool.description}`;
    if (!hasSchema(tool)) {
      entries.push(head);
      continue;
    }
    const canon = canonicalSchema(ID, tool);
    const name = className(canon);
    const seen = classes.get(name);
    if (seen === undefined) {
      classes.set(name, canon);
      preamble.push(`class ${name} = ${canon}`);
    } else if (seen !== canon) {
      throw new ArmEncodeError(ID, `class name ${name} collides with a different schema seen earlier in the listing`, tool.tool_id);
    }
    entries.push(`${head}|${name}`);
  }
  const body = entries.join('\n\n');
  return preamble.length ? `${preamble.join('\n')}\n\n${body}` : body;
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'Distinct schemas declared once as content-addressed classes; tools reference their class.',
    altersIndex: true,
    lowerBound: false,
    retryRate: 0,
  },
  available: async () => null,
  renderTool,
  renderListing,
  indexDoc: (tool) => ({
    tool_id: tool.tool_id,
    server: tool.server,
    name: tool.tool,
    description: tool.description,
    params: hasSchema(tool) ? `{"$class":"${className(canonicalSchema(ID, tool))}"}` : '',
  }),
};
export default arm;
