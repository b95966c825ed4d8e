/**
 * bench-perf section "tokenizer": token-counting throughput inside the pipeline vs raw tiktoken.
 *
 * Corpus: ../shared/datasets/livemcptool/tools.json when present (527 tools), else
 * syntheticTools(527). For every available arm and both tokenizers, runArm is run with
 * tokenizers wrapped in a timer that records the time spent in Tokenizer.count(); each call is paired with a raw tiktoken encode_ordinary of the same string (separate
 * encoder instance), back to back. Ratio = pipeline tokens/s ÷ raw tokens/s (target >= 0.8).
 * Also printed: end-to-end runArm throughput (rendering + counting + statistics, raw time
 * excluded) against the same raw figure, for context. Printed, not asserted. Median of 3 rounds
 * after a warm-up round.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { resolveArms } from '../../arms/registry.ts';
import { runArm, type ArmRunResult } from '../../pipeline/bench/arm-tokens.ts';
import { getTokenizer, TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from '../../pipeline/tokens/tokenizer.ts';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import type { Corpus, JsonValue, ToolRecord } from '../../pipeline/types.ts';
import { BASELINE_ARM_ID, type Arm } from '../../arms/types.ts';

const LIVE = fileURLToPath(new URL('../../../shared/datasets/livemcptool/tools.json', import.meta.url));
const ROUNDS = 3;

function loadCorpus(): { corpus: Corpus; note: string } {
  if (existsSync(LIVE)) {
    // Minimal reader for the mirror's flattened shape (see its ATTRIBUTION.md); the real loader lives in pipeline/corpus.
    const doc = JSON.parse(readFileSync(LIVE, 'utf8')) as {
      version: string;
      tools: { server: string; tool: string; description: string | null; inputSchema?: JsonValue }[];
    };
    const tools: ToolRecord[] = doc.tools.map((r) => {
      const t: ToolRecord = { tool_id: `${r.server}:${r.tool}`, server: r.server, tool: r.tool, description: r.description ?? '' };
      if (r.inputSchema !== undefined) t.inputSchema = r.inputSchema;
      return t;
    });
    return { corpus: mk('livemcptool', doc.version, tools, LIVE), note: `${LIVE} (${tools.length} tools)` };
  }
  const tools = syntheticTools(527);
  return {
    corpus: mk('synthetic-527', 'synthetic-527@seed42', tools, 'syntheticTools(527)'),
    note: `syntheticTools(527): ${LIVE} not found`,
  };
}

function mk(id: string, version: string, tools: ToolRecord[], source: string): Corpus {
  return { id, name: id, version, license: 'n/a', committed: false, format: 'perf', source, tools };
}

/**
 * Tokenizer wrapper: each count() call through the pipeline's tokenizer is paired with a raw
 * tiktoken encode_ordinary of the same string, back to back (which one runs first alternates per
 * call), so both see the same machine load and cache state. The raw call's time is excluded
 * from the end-to-end figure.
 */
class PairedTokenizer implements Tokenizer {
  pipeNs = 0;
  rawNs = 0;
  tokens = 0;
  calls = 0;
  constructor(
    private readonly inner: Tokenizer,
    private readonly raw: Tiktoken,
  ) {}
  get name(): TokenizerName {
    return this.inner.name;
  }
  count(text: string): number {
    const rawFirst = (this.calls++ & 1) === 1;
    let n = 0;
    let r = 0;
    if (rawFirst) r = this.timeRaw(text);
    const t0 = process.hrtime.bigint();
    n = this.inner.count(text);
    this.pipeNs += Number(process.hrtime.bigint() - t0);
    if (!rawFirst) r = this.timeRaw(text);
    if (r !== n) throw new Error(`${this.name}: pipeline counted ${n} tokens, raw tiktoken ${r}`);
    this.tokens += n;
    return n;
  }
  private timeRaw(text: string): number {
    const t0 = process.hrtime.bigint();
    const r = this.raw.encode_ordinary(text).length;
    this.rawNs += Number(process.hrtime.bigint() - t0);
    return r;
  }
  countSpans(): never {
    throw new Error('not used here');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { corpus, note } = loadCorpus();
  console.log(`corpus: ${note}`);
  const arms: Arm[] = [];
  for (const a of resolveArms('all')) {
    const why = await a.available();
    if (why === null) arms.push(a);
    else console.log(`arm ${a.meta.id}: ${why}`);
  }
  const rows: { tk: string; tokens: number; pipeTokS: number; rawTokS: number; e2eTokS: number; ratio: number }[] = [];
  for (const name of TOKENIZER_NAMES) {
    const raw = get_encoding(name);
    const ratios: number[] = [];
    const pipeRates: number[] = [];
    const rawRates: number[] = [];
    const e2eRates: number[] = [];
    let tokens = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const paired = new PairedTokenizer(getTokenizer(name), raw);
      let base: ArmRunResult | undefined;
      const t0 = process.hrtime.bigint();
      for (const a of arms) {
        const r = await runArm(a, corpus, [paired], base);
        if (a.meta.id === BASELINE_ARM_ID) base = r;
        if (round === 0 && name === TOKENIZER_NAMES[0]) {
          const ex = r.skipped_examples[0];
          console.log(
            `arm ${a.meta.id}: ${r.tool_ids.length} tools encoded, ${r.skipped_tools} skipped${ex ? ` (e.g. ${ex.tool_id}: ${ex.error})` : ''}`,
          );
        }
      }
      const e2eNs = Number(process.hrtime.bigint() - t0) - paired.rawNs;
      if (round === 0) continue; // warm-up
      tokens = paired.tokens;
      pipeRates.push(paired.tokens / (paired.pipeNs / 1e9));
      rawRates.push(paired.tokens / (paired.rawNs / 1e9));
      ratios.push(paired.rawNs / paired.pipeNs);
      e2eRates.push(paired.tokens / (e2eNs / 1e9));
    }
    raw.free();
    rows.push({
      tk: name,
      tokens,
      pipeTokS: median(pipeRates),
      rawTokS: median(rawRates),
      e2eTokS: median(e2eRates),
      ratio: median(ratios),
    });
  }

  console.log(
    `arms: ${arms.map((a) => a.meta.id).join(', ')}; ${ROUNDS} rounds (median) after 1 warm-up; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log('tokenizer     tokens/round  pipeline tok/s   raw tok/s   ratio (target >= 0.8)   runArm end-to-end tok/s  (ratio to raw)');
  for (const r of rows) {
    console.log(
      `${r.tk.padEnd(12)}  ${String(r.tokens).padStart(12)}  ${fmt(r.pipeTokS).padStart(14)}  ${fmt(r.rawTokS).padStart(10)}  ${r.ratio.toFixed(3).padStart(8)} ${r.ratio >= 0.8 ? 'ok  ' : 'LOW '}            ${fmt(r.e2eTokS).padStart(14)}  (${(r.e2eTokS / r.rawTokS).toFixed(3)})`,
    );
  }
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

await main();
