/** Test corpora for the arm tests (committed under test/data/). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Corpus, JsonValue, ToolRecord } from '../../pipeline/types.ts';

export const SAMPLE_PATH = fileURLToPath(new URL('../data/arms-sample.tools.json', import.meta.url));
export const PREDECESSOR_PATH = fileURLToPath(new URL('../data/arms-predecessor-goldens.json', import.meta.url));

export function sampleTools(): ToolRecord[] {
  const doc = JSON.parse(readFileSync(SAMPLE_PATH, 'utf8')) as { tools: ToolRecord[] };
  return doc.tools;
}

export function sampleCorpus(tools: ToolRecord[] = sampleTools(), id = 'arms-sample-v1'): Corpus {
  return { id, name: 'arms test sample', version: id, license: 'MIT', committed: true, format: 'mcpgauge', source: SAMPLE_PATH, tools };
}

export interface PredecessorGoldens {
  baseline_json_fetch_tool: string;
  compact_sig_listing: string;
  tron_dedup_listing: string;
  toon_listing_listing: string;
  tscg_jsonl: string;
}
export function predecessorGoldens(): PredecessorGoldens {
  return JSON.parse(readFileSync(PREDECESSOR_PATH, 'utf8')) as PredecessorGoldens;
}

/** Two schemas whose tron_dedup class names collide (found by search: both are Cd14e8501). */
export const COLLIDING_SCHEMAS: JsonValue[] = [
  { type: 'object', properties: { n77959: { type: 'string' } } },
  { type: 'object', properties: { n98107: { type: 'string' } } },
];
