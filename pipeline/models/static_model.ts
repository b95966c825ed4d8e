/**
 * A static embedding model loaded from the cache: the token-vector table (safetensors, F16,
 * each row widened to F32 as it is used) and its Hugging Face tokenizer (`@huggingface/tokenizers`, pure JS). An
 * embedding is the mean of the vectors of the text's tokens (tokenized without special tokens),
 * L2-normalised; a text without tokens embeds to the zero vector. Loaded once per process and
 * folder (both files' sha256 checked at load).
 */
import { createRequire } from 'node:module';
import type { Tokenizer } from '@huggingface/tokenizers';
import { UserError } from '../types.ts';
import { readModelFile } from './fetch.ts';
import { f16Table, readF16Bits } from './safetensors.ts';
import { DEFAULT_MODELS_DIR, modelDir, WORDLLAMA, type ModelSpec } from './wordllama.ts';

export interface StaticModel {
  id: string;
  dims: number;
  vocab: number;
  /** wall time of loading (read, check, parse, widen), ms */
  load_ms: number;
  /** token ids of `text`, no special tokens added */
  tokenize(text: string): number[];
  /** mean of token vectors, L2-normalised (zero vector when the text has no tokens) */
  embed(text: string): Float32Array;
}

const loaded = new Map<string, StaticModel>();

export function loadStaticModel(spec: ModelSpec = WORDLLAMA, root: string = DEFAULT_MODELS_DIR): StaticModel {
  const dir = modelDir(spec, root);
  const hit = loaded.get(dir);
  if (hit) return hit;
  const t0 = performance.now();
  const weightsBuf = readModelFile(spec.weights, dir);
  const tokBuf = readModelFile(spec.tokenizer, dir);
  const [vocab, dims] = spec.tensor.shape;
  // the halves as they are in the file; a token's row is widened to F32 when a text uses it (the
  // same values as widening the whole table first, which cost ~130 ms of CPU per process)
  const bits = readF16Bits(weightsBuf, spec.tensor.name, spec.tensor.shape, `${dir}/${spec.weights.name}`);
  const widen = f16Table();
  let tokenizer: Tokenizer;
  try {
    // loaded here, not at import: a command that never embeds (comply, fixture) never loads it
    const { Tokenizer: TokenizerClass } = createRequire(import.meta.url)(
      '@huggingface/tokenizers',
    ) as typeof import('@huggingface/tokenizers');
    tokenizer = new TokenizerClass(JSON.parse(tokBuf.toString('utf8')), {});
  } catch (e) {
    throw new UserError(`${dir}/${spec.tokenizer.name}: cannot build the tokenizer (${(e as Error).message})`);
  }
  const tokenize = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;
  const model: StaticModel = {
    id: spec.id,
    dims,
    vocab,
    load_ms: performance.now() - t0,
    tokenize,
    embed(text) {
      const v = new Float32Array(dims);
      const ids = tokenize(text);
      let n = 0;
      for (const id of ids) {
        if (!(id >= 0 && id < vocab)) continue;
        const off = id * dims;
        for (let j = 0; j < dims; j++) v[j] += widen[bits[off + j]];
        n++;
      }
      if (n === 0) return v;
      let s = 0;
      for (let j = 0; j < dims; j++) s += v[j] * v[j];
      // the mean's 1/n cancels in the normalisation
      const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
      for (let j = 0; j < dims; j++) v[j] *= inv;
      return v;
    },
  };
  loaded.set(dir, model);
  return model;
}
