/**
 * The embeddings endpoint flags shared by `bench` and `proxy` (the `embed` and `hybrid_embed`
 * retrievers). The API key never travels as a flag: it is read from MCPGAUGE_EMBED_API_KEY.
 */
import { Option } from 'commander';
import { EMBED_KEY_ENV } from '../retrieval/index.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';

export const EMBED_FLAGS: readonly Option[] = [
  new Option(
    '--embed-url <url>',
    `embeddings endpoint for the embed/hybrid_embed retrievers: OpenAI-compatible .../v1/embeddings or Ollama .../api/embed (key from ${EMBED_KEY_ENV})`,
  ),
  new Option('--embed-model <name>', 'embedding model name sent to --embed-url'),
];

/** The retriever options the embed flags set ({} when absent). */
export function embedOptionsFromFlags(flags: { embedUrl?: unknown; embedModel?: unknown }): RetrieverOptions {
  const o: RetrieverOptions = {};
  if (typeof flags.embedUrl === 'string') o.url = flags.embedUrl;
  if (typeof flags.embedModel === 'string') o.model = flags.embedModel;
  return o;
}
