/**
 * mcpgauge text analyzer (id `mcpgauge-analyzer-v1`), used by the BM25F index for documents
 * and queries alike. Every step is deterministic and locale-independent.
 *
 * 1. Normalize: Unicode NFKC. Apostrophes inside a word are dropped ("user's" -> "users").
 *    In the `params` field only, JSON Schema meta URLs (`http(s)://json-schema.org/...`) are
 *    removed first.
 * 2. Words: maximal runs of Unicode letters, combining marks and digits, optionally joined by
 *    the identifier connectors `_`, `-` and `.` (so `read_text_file`, `git-status`,
 *    `fs.readFile` are one word each). Everything else (spaces, JSON punctuation, quotes,
 *    brackets, colons, slashes...) separates words and never produces a token.
 * 3. Parts: a word is split on its connectors and on camelCase boundaries (lower/digit ->
 *    Upper, and `HTMLParser` -> `HTML` + `Parser`, Unicode upper/lower classes). Letter/digit
 *    boundaries do not split (`base64`, `v2` stay whole). Parts are lowercased with the
 *    locale-independent `String.prototype.toLowerCase`.
 * 4. Joined form: a word with two or more parts ALSO yields its parts concatenated
 *    ("read_text_file" -> read, text, file, readtextfile). This keeps an exact-identifier
 *    match ("readTextFile", "read-text-file" and "read_text_file" all meet the same joined
 *    token) without losing the partial matches. The joined form is built from the parts left
 *    after stop-word removal.
 * 5. Stop words: a small English list (`STOP_WORDS`: articles, pronouns, prepositions,
 *    auxiliaries) is dropped in every field and in queries. In the `params` field, JSON Schema
 *    vocabulary (`SCHEMA_STOP_WORDS`: type, properties, object, string, required, items,
 *    array, integer, number, boolean, null, enum, default, description, ...) is dropped too:
 *    arms render parameters as JSON/TOON/signatures, and these words would otherwise give
 *    every tool with a schema the same high-frequency noise. Whole words that are schema
 *    keywords written in camelCase (`additionalProperties`, `minLength`, `anyOf`...) are dropped
 *    with all their parts (`read-only` in prose is kept). Cost, accepted: a prose parameter
 *    description's "number"/"string" is lost in `params` (the tool `description` field still
 *    keeps such words).
 * 6. Stemmer (own, light): only tokens of ASCII letters a-z longer than 3 characters; other
 *    tokens (digits, non-Latin scripts) pass unchanged. Steps in order:
 *    a. plural: -ies -> -i; -sses -> -ss; -es after x/ch/sh/z -> strip -es; -s (not -ss, -us,
 *       -is) -> strip -s;
 *    b. -ing (remaining stem >= 3 letters with a vowel) -> strip, then undouble a final double
 *       consonant other than l/s/z ("mapping" -> map);
 *    c. -ied -> -i; -ed (same stem condition as -ing) -> strip, then undouble;
 *    d. final -e dropped when >= 3 letters remain ("create", "created", "creating" -> creat);
 *    e. final -y after a consonant -> -i ("query", "queries" -> queri).
 *    The stemmer is applied to parts and to joined forms alike.
 * Limits: no word segmentation for scripts written without spaces (a CJK run is one token);
 * no synonyms; the stemmer is English-only.
 */

export const ANALYZER_ID = 'mcpgauge-analyzer-v1';

export const ANALYZER_DESCRIPTION =
  `${ANALYZER_ID}: NFKC; words are runs of Unicode letters/marks/digits joined by _ - . ; ` +
  'each word is split on connectors and camelCase into lowercased parts, and a multi-part word also ' +
  'yields its joined form (read_text_file -> read, text, file, readtextfile); JSON punctuation never ' +
  'yields tokens; a small English stop-word list is dropped everywhere, and JSON Schema vocabulary ' +
  '(type, properties, object, string, required, items, ...) is dropped in the params field; a light ' +
  'English suffix stemmer (plural -s/-es/-ies, -ing, -ed, final -e, final -y -> i) applies to ASCII ' +
  'words longer than 3 letters.';

/** Which field text is analyzed for; only `params` changes behaviour. */
export type AnalyzeMode = 'text' | 'params';

export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'nor',
  'but',
  'if',
  'then',
  'else',
  'of',
  'to',
  'in',
  'on',
  'at',
  'by',
  'for',
  'with',
  'from',
  'into',
  'onto',
  'as',
  'about',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'there',
  'i',
  'me',
  'my',
  'mine',
  'we',
  'us',
  'our',
  'you',
  'your',
  'he',
  'she',
  'him',
  'her',
  'his',
  'they',
  'them',
  'their',
  'which',
  'who',
  'whom',
  'whose',
  'what',
  'so',
  'than',
  'too',
  'very',
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'please',
  'e',
  'g',
  'eg',
  'ie',
  'etc',
  's',
  't',
]);

export const SCHEMA_STOP_WORDS: ReadonlySet<string> = new Set([
  'type',
  'types',
  'properties',
  'property',
  'object',
  'string',
  'required',
  'items',
  'array',
  'integer',
  'number',
  'boolean',
  'null',
  'enum',
  'default',
  'description',
  'title',
  'format',
  'minimum',
  'maximum',
  'pattern',
  'const',
  'schema',
  'ref',
  'defs',
  'definitions',
  'true',
  'false',
  'optional',
  'examples',
  'example',
  'nullable',
  'deprecated',
]);

/** Whole (joined, lowercased) words that are JSON Schema keywords: dropped with all their parts. */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalproperties',
  'patternproperties',
  'propertynames',
  'minlength',
  'maxlength',
  'minitems',
  'maxitems',
  'uniqueitems',
  'minproperties',
  'maxproperties',
  'exclusiveminimum',
  'exclusivemaximum',
  'multipleof',
  'anyof',
  'oneof',
  'allof',
  'readonly',
  'writeonly',
  'contentmediatype',
  'contentencoding',
  'prefixitems',
  'unevaluatedproperties',
  'unevaluateditems',
  'dependentrequired',
  'dependentschemas',
]);

/** The word language (documentation; `forEachWord` scans the same thing by hand). */
export const WORD_RE = /[\p{L}\p{M}\p{N}]+(?:[_.-][\p{L}\p{M}\p{N}]+)*/u;
const APOSTROPHE_RE = /(?<=[\p{L}\p{M}\p{N}])['\u2019](?=[\p{L}\p{M}\p{N}])/gu;
const SCHEMA_URL_RE = /https?:\/\/json-schema\.org[^\s"',}\]]*/giu;
// camelCase boundaries: lower/digit followed by Upper; Upper followed by Upper+lower.
const CAMEL_RE = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const CONNECTOR_RE = /[_.-]+/;
const ASCII_WORD_RE = /^[a-z]+$/;
const VOWEL_RE = /[aeiouy]/;

/** Split one identifier-like word into its lowercased parts (no stop words, no stemming). */
export function identifierParts(word: string): string[] {
  const out: string[] = [];
  for (const piece of word.split(CONNECTOR_RE)) {
    if (!piece) continue;
    for (const p of piece.split(CAMEL_RE)) if (p) out.push(p.toLowerCase());
  }
  return out;
}

function stemCondition(stem: string): boolean {
  return stem.length >= 3 && VOWEL_RE.test(stem);
}

function undouble(s: string): string {
  const n = s.length;
  if (n >= 2 && s[n - 1] === s[n - 2] && !'aeiouylsz'.includes(s[n - 1])) return s.slice(0, -1);
  return s;
}

/** Light English suffix stemmer (see the header comment, step 6). */
export function stem(token: string): string {
  if (token.length <= 3 || !ASCII_WORD_RE.test(token)) return token;
  let w = token;
  // a. plurals
  if (w.endsWith('ies') && w.length > 4)
    w = w.slice(0, -2); // queries -> queri
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:x|ch|sh|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // b. -ing
  if (w.endsWith('ing') && stemCondition(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  // c. -ied / -ed
  else if (w.endsWith('ied') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ed') && stemCondition(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  // d. final -e
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  // e. final -y after a consonant
  if (w.length >= 3 && w.endsWith('y') && !'aeiou'.includes(w[w.length - 2])) w = w.slice(0, -1) + 'i';
  return w;
}

const LOWER_ASCII_RE = /^[a-z0-9]+$/;
const NON_ASCII_RE = /[^\x00-\x7f]/;
const WORD_CHAR_RE = /[\p{L}\p{M}\p{N}]/u;

function normalize(text: string, mode: AnalyzeMode): string {
  let t = NON_ASCII_RE.test(text) ? text.normalize('NFKC') : text;
  if (mode === 'params' && t.includes('json-schema.org')) t = t.replace(SCHEMA_URL_RE, ' ');
  if (t.includes("'") || t.includes('\u2019')) t = t.replace(APOSTROPHE_RE, '');
  return t;
}

/** Length in UTF-16 units of the word character at i (0 if none): letters, marks, digits. */
function wordCharLen(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  const cp = t.codePointAt(i)!;
  const len = cp > 0xffff ? 2 : 1;
  return WORD_CHAR_RE.test(t.slice(i, i + len)) ? len : 0;
}

/** Calls fn for each word (same language as WORD_RE, hand-scanned to avoid match objects). */
function forEachWord(t: string, fn: (word: string) => void): void {
  const n = t.length;
  let i = 0;
  while (i < n) {
    let l = wordCharLen(t, i);
    if (l === 0) {
      i++;
      continue;
    }
    const start = i;
    i += l;
    for (;;) {
      if (i >= n) break;
      l = wordCharLen(t, i);
      if (l) {
        i += l;
        continue;
      }
      const c = t.charCodeAt(i);
      if ((c === 95 || c === 46 || c === 45) && i + 1 < n && wordCharLen(t, i + 1)) {
        i++;
        continue;
      }
      break;
    }
    fn(t.slice(start, i));
  }
}

function keepPart(part: string, mode: AnalyzeMode): boolean {
  if (STOP_WORDS.has(part)) return false;
  if (mode === 'params' && SCHEMA_STOP_WORDS.has(part)) return false;
  return true;
}

/** Per-word analysis result: kept, stemmed parts and the stemmed joined form ('' if none). */
interface WordAnalysis {
  parts: string[];
  joined: string;
}

/** The three field analyzers, all built on one stemmer (see `createAnalyzer`). */
export interface Analyzer {
  /** analyzer id reported with every score, e.g. `mcpgauge-analyzer-v1` */
  id: string;
  /** per word its kept parts (stemmed) and, for a multi-part word, the joined form (stemmed) */
  analyze(text: string, mode?: AnalyzeMode): string[];
  /** only the parts of each word: the `name_parts` field */
  analyzeParts(text: string): string[];
  /** only the joined form of each word (a single-part word is its own): the `name` field */
  analyzeJoined(text: string): string[];
}

// Words repeat heavily across a catalog; memoize per mode (bounded, cleared when full).
const CACHE_LIMIT = 200_000;
/** characters of analyzed whole texts kept per analyzer (keys), then the memo starts over */
const TEXT_MEMO_CHARS = 64 * 1024 * 1024;

/**
 * Steps 1-5 of the header with `stemFn` as step 6 (`stem` above for `mcpgauge-analyzer-v1`;
 * another stemmer gives another analyzer id, e.g. the Snowball one of `bm25f_snowball`).
 * `stemFn` is only called on lowercase ASCII-letter tokens longer than 3 characters.
 */
export function createAnalyzer(id: string, stemFn: (token: string) => string): Analyzer {
  const stemOne = stemFn === stem ? stem : (t: string) => (t.length <= 3 || !ASCII_WORD_RE.test(t) ? t : stemFn(t));
  const wordCache: Record<AnalyzeMode, Map<string, WordAnalysis>> = { text: new Map(), params: new Map() };

  function analyzeWord(word: string, mode: AnalyzeMode): WordAnalysis {
    const cache = wordCache[mode];
    const hit = cache.get(word);
    if (hit) return hit;
    let res: WordAnalysis;
    if (LOWER_ASCII_RE.test(word)) {
      // fast path: one lowercase ASCII part
      res = keepPart(word, mode) ? { parts: [stemOne(word)], joined: '' } : { parts: [], joined: '' };
    } else {
      const parts = identifierParts(word);
      if (mode === 'params' && parts.length > 1 && !CONNECTOR_RE.test(word) && SCHEMA_KEYWORDS.has(parts.join(''))) {
        res = { parts: [], joined: '' };
      } else {
        const kept = parts.filter((p) => keepPart(p, mode));
        res = { parts: kept.map(stemOne), joined: kept.length >= 2 ? stemOne(kept.join('')) : '' };
      }
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, res);
    return res;
  }

  // Whole texts repeat too: every cross-validation grid point and every retriever re-indexes the
  // same docs and re-analyzes the same queries. Memo per function and mode (bounded by total
  // characters, cleared when full); callers get a copy, so nothing they do reaches the memo.
  const textMemo = new Map<string, string[]>();
  let memoChars = 0;
  const memoized = (kind: string, text: string, run: () => string[]): string[] => {
    const key = `${kind}\u0000${text}`;
    const hit = textMemo.get(key);
    if (hit) return hit.slice();
    const out = run();
    if (memoChars + key.length > TEXT_MEMO_CHARS) {
      textMemo.clear();
      memoChars = 0;
    }
    textMemo.set(key, out.slice());
    memoChars += key.length;
    return out;
  };

  return {
    id,
    analyze(text: string, mode: AnalyzeMode = 'text'): string[] {
      return text ? memoized(mode, text, () => analyzeText(text, mode)) : [];
    },
    analyzeParts(text: string): string[] {
      return text ? memoized('parts', text, () => analyzePartsText(text)) : [];
    },
    analyzeJoined(text: string): string[] {
      return text ? memoized('joined', text, () => analyzeJoinedText(text)) : [];
    },
  };

  function analyzeText(text: string, mode: AnalyzeMode): string[] {
    const out: string[] = [];
    forEachWord(normalize(text, mode), (word) => {
      const w = analyzeWord(word, mode);
      for (const p of w.parts) out.push(p);
      if (w.joined) out.push(w.joined);
    });
    return out;
  }
  function analyzePartsText(text: string): string[] {
    const out: string[] = [];
    forEachWord(normalize(text, 'text'), (word) => {
      for (const p of analyzeWord(word, 'text').parts) out.push(p);
    });
    return out;
  }
  function analyzeJoinedText(text: string): string[] {
    const out: string[] = [];
    forEachWord(normalize(text, 'text'), (word) => {
      const w = analyzeWord(word, 'text');
      if (w.joined) out.push(w.joined);
      else if (w.parts.length === 1) out.push(w.parts[0]);
    });
    return out;
  }
}

/** The default analyzer (`mcpgauge-analyzer-v1`, the light stemmer of step 6). */
export const DEFAULT_ANALYZER: Analyzer = createAnalyzer(ANALYZER_ID, stem);

/**
 * Analyze text into index/query terms: per word its kept parts (stemmed) and, for a
 * multi-part word, the joined form (stemmed). Order follows the text.
 */
export function analyze(text: string, mode: AnalyzeMode = 'text'): string[] {
  return DEFAULT_ANALYZER.analyze(text, mode);
}

/** Only the parts of each word (stemmed, stop words dropped): the `name_parts` field. */
export function analyzeParts(text: string): string[] {
  return DEFAULT_ANALYZER.analyzeParts(text);
}

/**
 * Only the joined form of each word (stemmed; a single-part word is its own joined form):
 * the `name` field, i.e. the bare tool name as one exact token.
 */
export function analyzeJoined(text: string): string[] {
  return DEFAULT_ANALYZER.analyzeJoined(text);
}
