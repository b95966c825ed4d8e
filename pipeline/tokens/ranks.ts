/**
 * gpt-tokenizer's BPE ranks of one encoding (rank -> the token's text, or its bytes when they are
 * not valid UTF-8), the table its encoder is built from (tokenizer.ts jsEncoder).
 *
 * The package ships each table as a JavaScript file (cl100k_base: 1.2 MB, 100,256 entries) that
 * node compiles on every start: about 60 ms of a corpus_v2-sized bench (issue 31). The same
 * table as JSON text parses in about a third of that, so the first load keeps a JSON copy under
 * CACHE_ROOT/tokenizers/, named by the encoding and gpt-tokenizer's version, written atomically
 * (util/fs.ts writeFileAtomic); later loads read it. The copy holds exactly the package's values
 * (strings and byte arrays; the tables have no holes); a copy is used only when it holds as many
 * entries as the encoding has mergeable tokens (MERGEABLE). A copy that cannot be read, parsed
 * or written, or is not that long, is ignored: the package's file is loaded as before.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CACHE_ROOT, type TokenizerName } from '../constants.ts';
import { writeFileAtomic } from '../util/fs.ts';

/** rank -> the token's text, or its bytes */
export type Ranks = (string | number[])[];

const require = createRequire(import.meta.url);

/** mergeable tokens of each encoding (its special tokens come on top): the length of its table */
export const MERGEABLE: Record<TokenizerName, number> = { cl100k_base: 100_256, o200k_base: 199_998 };

/** where the JSON copy of `name`'s table is kept for this gpt-tokenizer version */
export function ranksCacheFile(name: TokenizerName): string {
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  return join(CACHE_ROOT, 'tokenizers', `gpt-tokenizer-${version}-${name}.json`);
}

/** `name`'s table: the JSON copy (`file`) when there is a readable one, else the package's file (and a copy written) */
export function loadRanks(name: TokenizerName, file = ranksCacheFile(name)): Ranks {
  try {
    const got = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (Array.isArray(got) && got.length === MERGEABLE[name]) return got as Ranks;
  } catch {
    /* no copy yet, or unreadable: the package's file */
  }
  const ranks = (require(`gpt-tokenizer/bpeRanks/${name}`) as { default: Ranks }).default;
  try {
    writeFileAtomic(file, JSON.stringify(ranks));
  } catch {
    /* read-only cache: the package's file again next time */
  }
  return ranks;
}
