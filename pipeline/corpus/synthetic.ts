/**
 * Deterministic synthetic tools, for scale tests (bench-perf's 50k corpus, the fixture's
 * `--catalog N`). Same (n, seed) -> byte-identical tools on every machine.
 */
import type { ToolRecord, JsonValue } from '../types.ts';
import { seededRandom } from '../util/stats.ts';

const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'search',
  'sync',
  'export',
  'import',
  'archive',
  'restore',
  'validate',
  'render',
  'schedule',
  'cancel',
  'merge',
];
const NOUNS = [
  'invoice',
  'ticket',
  'repository',
  'calendar_event',
  'customer',
  'shipment',
  'metric',
  'dashboard',
  'playlist',
  'forecast',
  'document',
  'branch',
  'payment',
  'sensor',
  'recipe',
  'contract',
  'alert',
  'backup',
  'label',
  'webhook',
];
const ADJ = ['recent', 'archived', 'pending', 'shared', 'private', 'remote', 'draft', 'flagged'];
const PARAM_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const;
const PARAM_NAMES = [
  'id',
  'name',
  'query',
  'limit',
  'offset',
  'owner',
  'status',
  'since',
  'until',
  'tags',
  'format',
  'region',
  'priority',
  'notes',
  'dry_run',
  'include_deleted',
  'sort_by',
  'page_token',
  'timezone',
  'currency',
];

export function syntheticTools(n: number, seed = 42, server = 'synthetic'): ToolRecord[] {
  const rnd = seededRandom(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const out: ToolRecord[] = [];
  const width = String(Math.max(1, n - 1)).length;
  for (let i = 0; i < n; i++) {
    const verb = pick(VERBS);
    const noun = pick(NOUNS);
    const adj = pick(ADJ);
    const tool = `${verb}_${noun}_${String(i).padStart(width, '0')}`;
    const nParams = Math.floor(rnd() * rnd() * 12); // skewed: most small, some large
    const properties: Record<string, JsonValue> = {};
    const required: string[] = [];
    for (let p = 0; p < nParams; p++) {
      const pname = `${PARAM_NAMES[(i + p * 7) % PARAM_NAMES.length]}${p >= PARAM_NAMES.length ? `_${p}` : ''}`;
      const type = pick(PARAM_TYPES);
      const prop: Record<string, JsonValue> = {
        type,
        description: `The ${pname.replace(/_/g, ' ')} of the ${adj} ${noun.replace(/_/g, ' ')} to ${verb}.`,
      };
      if (type === 'array') prop.items = { type: 'string' };
      if (type === 'integer' && rnd() < 0.5) prop.minimum = 0;
      if (type === 'string' && rnd() < 0.2) prop.enum = ['low', 'medium', 'high'];
      properties[pname] = prop;
      if (rnd() < 0.4) required.push(pname);
    }
    const schema: Record<string, JsonValue> = { type: 'object', properties };
    if (required.length) schema.required = required;
    out.push({
      tool_id: `${server}:${tool}`,
      server,
      tool,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} ${adj} ${noun.replace(/_/g, ' ')} records${rnd() < 0.5 ? ` for the given ${PARAM_NAMES[i % PARAM_NAMES.length].replace(/_/g, ' ')}` : ''}. Returns the affected ${noun.replace(/_/g, ' ')} entries as JSON.`,
      inputSchema: schema,
    });
  }
  return out;
}
