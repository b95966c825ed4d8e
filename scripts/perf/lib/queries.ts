/**
 * A seeded perf query set over a corpus (scripts/perf/lib is not itself a section): `n` queries,
 * each a 6-word window of a tool's description (tool and window drawn by seededRandom), that tool
 * its one relevant label. Tools may repeat, so n can exceed the tool count. It exercises the
 * pipeline at a given query count; it is not a quality figure.
 */
import type { GoldenSet, ToolRecord } from '../../../pipeline/types.ts';
import { seededRandom } from '../../../pipeline/util/stats.ts';

export function perfQueries(
  tools: readonly ToolRecord[],
  corpusVersion: string,
  n: number,
  seed = 7,
): GoldenSet & { format: string; version: string } {
  const rnd = seededRandom(seed);
  const usable = tools.map((t) => ({ t, words: t.description.split(/\s+/).filter(Boolean) })).filter((x) => x.words.length >= 3);
  if (usable.length === 0) throw new Error('perfQueries: no tool has a description of 3 words or more');
  const queries = [];
  for (let j = 0; j < n; j++) {
    const { t, words } = usable[Math.floor(rnd() * usable.length)];
    const start = Math.floor(rnd() * Math.max(1, words.length - 5));
    queries.push({ id: `perf-${j}`, query: words.slice(start, start + 6).join(' '), labels: [{ tool_id: t.tool_id, relevance: 3 }] });
  }
  return { format: 'mcpgauge-golden', version: `perf-${n}`, corpus_version: corpusVersion, queries };
}
