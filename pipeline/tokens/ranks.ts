/**
 * The BPE rank table of an encoding (bpe.ts RankTable), made from gpt-tokenizer's table of it
 * (`bpeRanks/<encoding>`: rank -> the token's text, or its bytes when they are not valid UTF-8).
 *
 * The package ships each table as a JavaScript file (cl100k_base: 1.2 MB, 100,256 entries) that
 * node compiles on every start, and its encoder turns it into a Map of strings: ~50 ms per process
 * (issue 31). The first load builds the flat binary layout instead and keeps it under
 * CACHE_ROOT/tokenizers/, named by the encoding, gpt-tokenizer's version and the layout's format,
 * written atomically (util/fs.ts writeFileAtomic); later loads read that file (~1 ms). A copy that
 * cannot be read, is not a table of the encoding's length (MERGEABLE) or fails the layout's
 * checks (RankTable.fromBytes) is ignored: the table is built from the package again and written
 * anew. A cache that cannot be written changes nothing but the speed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CACHE_ROOT, type TokenizerName } from '../constants.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { RankTable, TABLE_FORMAT, type Ranks } from './bpe.ts';

export type { Ranks };

const require = createRequire(import.meta.url);

/** mergeable tokens of each encoding (its special tokens come on top): the length of its table */
export const MERGEABLE: Record<TokenizerName, number> = { cl100k_base: 100_256, o200k_base: 199_998 };

/** gpt-tokenizer's own table of `name` (rank -> text or bytes) */
export function packageRanks(name: TokenizerName): Ranks {
  return (require(`gpt-tokenizer/bpeRanks/${name}`) as { default: Ranks }).default;
}

/** gpt-tokenizer's pre-tokenizer regex of `name` (global, unicode) */
export function splitRegex(name: TokenizerName): RegExp {
  const c = require('gpt-tokenizer/encodingParams/constants') as Record<string, RegExp>;
  const re = name === 'cl100k_base' ? c.CL100K_TOKEN_SPLIT_REGEX : c.O200K_TOKEN_SPLIT_REGEX;
  if (!(re instanceof RegExp)) throw new Error(`gpt-tokenizer has no pre-tokenizer regex for ${name}`);
  return re;
}

/** where the table of `name` is kept for this gpt-tokenizer version and layout */
export function rankTableFile(name: TokenizerName): string {
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  return join(CACHE_ROOT, 'tokenizers', `gpt-tokenizer-${version}-${name}.bpe${TABLE_FORMAT}`);
}

/** `name`'s rank table: the kept copy (`file`) when it is a sound one, else built from the package (and the copy written) */
export function loadRankTable(name: TokenizerName, file = rankTableFile(name)): RankTable {
  try {
    const got = RankTable.fromBytes(readFileSync(file), MERGEABLE[name]);
    if (got) return got;
  } catch {
    /* no copy yet, or unreadable: built from the package */
  }
  const ranks = packageRanks(name);
  if (ranks.length !== MERGEABLE[name]) throw new Error(`gpt-tokenizer's ${name} table has ${ranks.length} ranks, not ${MERGEABLE[name]}`);
  const table = RankTable.build(ranks);
  try {
    writeFileAtomic(file, table.bytes());
  } catch {
    /* read-only cache: built from the package again next time */
  }
  return table;
}
