import { searchWords } from './search-query.js';
import { foldWord, hasDigit, type TermDictionary } from './segments/term-dictionary.js';
import { MIN_PREFIX_LETTERS, ONE_TYPO_LETTERS, TWO_TYPOS_LETTERS } from './segments/word-matching.js';

/** `limit` of `GET /api/suggest`: suggestions of each kind. */
export const SUGGEST_LIMIT = { default: 8, maximum: 20 } as const;
/** Longest `q` of `GET /api/suggest`, characters (a search box, not a document). */
export const MAX_SUGGEST_Q_LENGTH = 200;

/** One suggestion: the text to put in the search box and the shop's articles its last word occurs in. */
export interface Suggestion {
  readonly text: string;
  readonly hits: number;
}

/** What `GET /api/suggest` answers (issue 27, decision 0040 "Suggestions"). */
export interface SuggestPage {
  /** Words the last word of `q` begins, those in the most articles first. */
  readonly completions: readonly Suggestion[];
  /** Words within the search's typo rule of the last word, nearest first, then in the most articles. */
  readonly corrections: readonly Suggestion[];
}

/** A suggestion request as the backend gets it. */
export interface SuggestQuery {
  /** The shops whose words are suggested; empty: every shop. */
  readonly shopIds: readonly string[];
  readonly q: string;
  /** Suggestions of each kind, 1 to `SUGGEST_LIMIT.maximum`. */
  readonly limit: number;
}

/** Words of one or more shops as a backend hands them to `suggestWords`. */
export interface ShopVocabulary {
  readonly dictionary: TermDictionary;
  /**
   * The articles of the shops asked for holding `term`, when the dictionary's counts are not
   * theirs (SQLite holds one vocabulary for the catalog: with some of several shops asked for,
   * its counts are the catalog's). Absent: the dictionary's counts are the ones to answer.
   */
  readonly shopHits?: (term: string) => number;
}

export const EMPTY_SUGGESTIONS: SuggestPage = { completions: [], corrections: [] };

/**
 * Candidates looked at per suggestion wanted when the counts are not the dictionary's own
 * (`shopHits`, or several vocabularies summed): a prefix's most frequent words in one are mostly
 * the most frequent in the sum too.
 */
const POOL_FACTOR = 4;
/** Most entries one completion request looks at (each a pop of the range's heap), digits and repeats skipped. */
const MAX_COMPLETION_POPS = 500;

interface Candidate {
  readonly term: string;
  readonly key: string;
  readonly distance: number;
  hits: number;
}

/**
 * Completions and corrections of the last word of `q` in the words of `vocabularies` (one per
 * shop segment searched; their counts add up, an article being in one shop): completions are the
 * words its folded key begins (itself included when indexed; from `MIN_PREFIX_LETTERS` letters),
 * those in the most articles first; corrections the words within the search's typo rule (1 edit
 * from `ONE_TYPO_LETTERS` letters, 2 from `TWO_TYPOS_LETTERS`, none for a word with a digit; an
 * edit of the first letter counts as two), nearest first, then in the most articles. Words with
 * digits are never suggested; of the words one key stands for (`grün`, `gruen`) the most
 * frequent is. Each `text` is `q` with its last word replaced. No vocabulary: nothing suggested.
 */
export function suggestWords(vocabularies: readonly ShopVocabulary[], q: string, limit: number): SuggestPage {
  const split = splitLastWord(q);
  if (vocabularies.length === 0 || !split || limit <= 0) return EMPTY_SUGGESTIONS;
  const { before, word, open } = split;
  const letters = [...word].length;
  const digits = hasDigit(word);
  const key = foldWord(word);
  const recount = vocabularies.length > 1 || vocabularies.some((v) => v.shopHits);
  const pool = recount ? limit * POOL_FACTOR : limit;
  const indexes = vocabularies.map((v) => suggestIndexOf(v.dictionary));
  const hitsOf = (term: string) => {
    let hits = 0;
    vocabularies.forEach((v, n) => {
      if (v.shopHits) hits += v.shopHits(term);
      else {
        const index = indexes[n]!;
        const i = index.indexOf(term);
        if (i >= 0) hits += index.articles[i]!;
      }
    });
    return hits;
  };
  // Candidates by word; the first vocabulary that has a word gives its count when nothing is recounted.
  const gather = (find: (v: ShopVocabulary, index: SuggestIndex) => number[]) => {
    const found = new Map<string, Candidate>();
    vocabularies.forEach((v, n) => {
      const index = indexes[n]!;
      for (const i of find(v, index)) {
        if (i < 0) continue;
        const term = index.terms[i] as string;
        const termKey = index.keys[i] as string;
        if (!found.has(term))
          found.set(term, { term, key: termKey, distance: typoDistance(key, termKey), hits: index.articles[i]! });
      }
    });
    const list = [...found.values()];
    if (recount) for (const c of list) c.hits = hitsOf(c.term);
    // One word per key: the most frequent spelling.
    const byKey = new Map<string, Candidate>();
    for (const c of list) {
      const had = byKey.get(c.key);
      if (c.hits > 0 && (!had || c.hits > had.hits || (c.hits === had.hits && c.term < had.term))) byKey.set(c.key, c);
    }
    return [...byKey.values()];
  };
  const byHits = (a: Candidate, b: Candidate) => b.hits - a.hits || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

  const completions =
    open && !digits && letters >= MIN_PREFIX_LETTERS
      ? gather((_, index) => index.mostFrequentWithPrefix(key, pool)).sort(byHits)
      : [];
  const edits = letters >= TWO_TYPOS_LETTERS ? 2 : letters >= ONE_TYPO_LETTERS ? 1 : 0;
  const corrections =
    edits > 0 && !digits
      ? gather((v, index) => v.dictionary.typos(word, edits, pool).map((t) => index.indexOf(t)))
          .filter((c) => c.key !== key)
          .sort((a, b) => a.distance - b.distance || byHits(a, b))
      : [];
  const present = (list: Candidate[]) => list.slice(0, limit).map((c) => ({ text: before + c.term, hits: c.hits }));
  return { completions: present(completions), corrections: present(corrections) };
}

/**
 * `q` cut before its last word (as `searchWords` finds words): `before` is the text the buyer
 * typed up to it, `word` the word normalised, `open` whether `q` ends in it (no separator after:
 * the buyer may still be typing it). Undefined when `q` has no word.
 */
export function splitLastWord(q: string): { before: string; word: string; open: boolean } | undefined {
  const words = searchWords(q);
  const word = words[words.length - 1];
  if (word === undefined) return undefined;
  const isWordChar = (c: number) => c >= 128 || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  let end = q.length;
  while (end > 0 && !isWordChar(q.charCodeAt(end - 1))) end -= 1;
  let start = end;
  while (start > 0 && isWordChar(q.charCodeAt(start - 1))) start -= 1;
  // A run beyond ASCII may hold several words (`a–b`): those before the last are kept, normalised.
  const inRun = searchWords(q.slice(start, end));
  const kept = inRun
    .slice(0, -1)
    .map((w) => `${w} `)
    .join('');
  return { before: q.slice(0, start) + kept, word, open: end === q.length };
}

/**
 * Edits between two folded keys as the search's typo rule counts them: optimal string alignment
 * (insertion, deletion, substitution, transposition), an edit of the first letter counting as two.
 */
export function typoDistance(a: string, b: string): number {
  if (a.charAt(0) !== b.charAt(0)) return Math.max(2, osaDistance(a, b));
  return osaDistance(a, b);
}

function osaDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let before = new Array<number>(n + 1).fill(0);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i += 1) {
    const row = new Array<number>(n + 1).fill(0);
    row[0] = i;
    for (let j = 1; j <= n; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        best = Math.min(best, before[j - 2]! + 1);
      row[j] = best;
    }
    before = previous;
    previous = row;
  }
  return previous[n]!;
}

/**
 * What suggestions need beside a `TermDictionary`, built once per dictionary (so per vocabulary
 * version and segment): a tournament tree over the article counts in key order, whose every node
 * holds the index of the most frequent entry below it. The most frequent words of a key range
 * then come out one by one, each in O(log n), without looking at the rest of the range.
 */
export class SuggestIndex {
  readonly keys: readonly string[];
  readonly terms: readonly string[];
  readonly articles: Uint32Array;
  /** `tree[width + i]` = i; `tree[node]` = the better of its two children; -1 beyond the entries. */
  readonly #tree: Int32Array;
  readonly #width: number;

  constructor(dictionary: TermDictionary) {
    const { keys, terms, articles } = dictionary.sorted();
    this.keys = keys;
    this.terms = terms;
    this.articles = articles;
    let width = 1;
    while (width < keys.length) width *= 2;
    this.#width = width;
    const tree = new Int32Array(2 * width).fill(-1);
    for (let i = 0; i < keys.length; i += 1) tree[width + i] = i;
    for (let node = width - 1; node >= 1; node -= 1) tree[node] = this.#better(tree[2 * node]!, tree[2 * node + 1]!);
    this.#tree = tree;
  }

  /** Index of `term` (an indexed word), or -1. */
  indexOf(term: string): number {
    const key = foldWord(term);
    for (let i = this.#lowerBound(key); i < this.keys.length && this.keys[i] === key; i += 1)
      if (this.terms[i] === term) return i;
    return -1;
  }

  /**
   * Up to `limit` indexes of words whose key starts with `prefix` (itself included), those in
   * the most articles first (ties: key order); words with digits and all but the most frequent
   * word of a key are skipped.
   */
  mostFrequentWithPrefix(prefix: string, limit: number): number[] {
    const from = this.#lowerBound(prefix);
    const to = this.#lowerBound(`${prefix}\uffff`);
    const ranges: { from: number; to: number; best: number }[] = [];
    const push = (f: number, t: number) => {
      if (f < t) ranges.push({ from: f, to: t, best: this.#best(f, t) });
    };
    push(from, to);
    const found: number[] = [];
    const keys = new Set<string>();
    for (let pops = 0; ranges.length > 0 && found.length < limit && pops < MAX_COMPLETION_POPS; pops += 1) {
      let at = 0;
      for (let r = 1; r < ranges.length; r += 1)
        if (this.#better(ranges[r]!.best, ranges[at]!.best) === ranges[r]!.best) at = r;
      const { from: f, to: t, best } = ranges[at]!;
      ranges.splice(at, 1);
      push(f, best);
      push(best + 1, t);
      const key = this.keys[best] as string;
      if (keys.has(key) || hasDigit(key)) continue;
      keys.add(key);
      found.push(best);
    }
    return found;
  }

  /** The better of two entries (-1: none): more articles, then the lower index. */
  #better(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    const x = this.articles[a]!;
    const y = this.articles[b]!;
    return x > y || (x === y && a < b) ? a : b;
  }

  /** The best entry of `[from, to)` (not empty). */
  #best(from: number, to: number): number {
    let best = -1;
    for (let l = from + this.#width, r = to + this.#width; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = this.#better(best, this.#tree[l++]!);
      if (r & 1) best = this.#better(best, this.#tree[--r]!);
    }
    return best;
  }

  #lowerBound(key: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.keys[middle] as string) < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const INDEXES = new WeakMap<TermDictionary, SuggestIndex>();

/** The `SuggestIndex` of `dictionary`, built on first use and kept as long as the dictionary. */
export function suggestIndexOf(dictionary: TermDictionary): SuggestIndex {
  let index = INDEXES.get(dictionary);
  if (!index) INDEXES.set(dictionary, (index = new SuggestIndex(dictionary)));
  return index;
}
