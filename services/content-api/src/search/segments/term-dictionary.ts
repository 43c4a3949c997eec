/** A dictionary's entries in key order (`TermDictionary.sorted`). */
interface SortedEntries {
  readonly keys: string[];
  readonly terms: string[];
  readonly articles: Uint32Array;
}

/**
 * The vocabulary of a catalog (or one shop's segment) for matching beyond exact words (decision
 * 0040): every indexed word under its folded key (`foldWord`), sorted by key in UTF-16 order, so
 * that the words a query word matches exactly (equal key), by prefix (key range) or with typos
 * (a walk of the sorted keys as a trie, pruned by an edit-distance bound) are found without a
 * scan of every word. Pure: built from words and their article counts, returns words.
 */
export class TermDictionary {
  /** Folded keys, ascending; `#terms[i]` is the indexed word of `#keys[i]` (the same string when equal). */
  readonly #keys: string[];
  readonly #terms: string[];
  /** Articles holding each word (for the most frequent words when a prefix has too many). */
  readonly #frequency: Uint32Array;
  #letters: string[] | undefined;
  /** The keys that can be compounds, grouped by their last letters (built on the first compound lookup). */
  #bySuffix: SuffixGroups | undefined;

  /**
   * `entries`: each distinct indexed word once, with the number of articles holding it.
   * `sorted`: the arrays themselves, already in key order (`patched`); `entries` is then empty.
   */
  constructor(entries: Iterable<readonly [term: string, articles: number]>, sorted?: SortedEntries) {
    if (sorted) {
      this.#keys = sorted.keys;
      this.#terms = sorted.terms;
      this.#frequency = sorted.articles;
      return;
    }
    const folded: { key: string; term: string; articles: number }[] = [];
    for (const [term, articles] of entries) {
      const key = foldWord(term);
      folded.push({ key: key === term ? term : key, term, articles });
    }
    folded.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    // Fresh flat strings allocated one after the other in key order: the walk's reads of nearby
    // keys then stay in the same cache lines. Words arrive as slices of the texts they were read
    // from (each bucket's vocabulary on PostgreSQL, in hash order) or as concatenations; the
    // typo walk took twice as long over those (decision 0040, step 4). The copies also let the
    // texts the words were sliced from go.
    const [keys, others] = JSON.parse(
      JSON.stringify([folded.map((f) => f.key), folded.map((f) => (f.term === f.key ? null : f.term))]),
    ) as [string[], (string | null)[]];
    this.#keys = keys;
    this.#terms = keys.map((key, i) => others[i] ?? key);
    this.#frequency = Uint32Array.from(folded, (f) => f.articles);
  }

  /**
   * This dictionary with `changes` applied: each word's article count now, 0 for a word no
   * article holds any more (the same dictionary as one built from the changed entries). The
   * words kept are neither folded, sorted nor copied again: a change of a few words costs a
   * lookup each and one pass over the arrays.
   */
  patched(changes: Iterable<readonly [term: string, articles: number]>): TermDictionary {
    const latest = new Map<string, number>();
    for (const [term, articles] of changes) latest.set(term, articles);
    const frequency = this.#frequency.slice();
    const removed = new Uint8Array(this.#keys.length);
    let removedCount = 0;
    const added: { key: string; term: string; articles: number }[] = [];
    for (const [term, articles] of latest) {
      const key = foldWord(term);
      let at = -1;
      for (let i = this.#lowerBound(key); i < this.#keys.length && this.#keys[i] === key; i += 1)
        if (this.#terms[i] === term) {
          at = i;
          break;
        }
      if (at < 0) {
        if (articles > 0) added.push({ key: key === term ? term : key, term, articles });
      } else if (articles > 0) frequency[at] = articles;
      else if (removed[at] === 0) {
        removed[at] = 1;
        removedCount += 1;
      }
    }
    if (added.length === 0 && removedCount === 0)
      return new TermDictionary([], { keys: this.#keys, terms: this.#terms, articles: frequency });
    added.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    // The new words as fresh flat strings, as the constructor makes them.
    const [newKeys, newOthers] = JSON.parse(
      JSON.stringify([added.map((f) => f.key), added.map((f) => (f.term === f.key ? null : f.term))]),
    ) as [string[], (string | null)[]];
    // Each new word's place among the old ones; the old ones between two places (less those
    // removed) are copied as a run.
    const places = added.map((f) => this.#placeOf(f.key, f.term));
    const n = this.#keys.length - removedCount + added.length;
    const keys = new Array<string>(n);
    const terms = new Array<string>(n);
    const articles = new Uint32Array(n);
    let out = 0;
    let i = 0;
    const copyTo = (end: number) => {
      for (; i < end; i += 1)
        if (removed[i] === 0) {
          keys[out] = this.#keys[i] as string;
          terms[out] = this.#terms[i] as string;
          articles[out] = frequency[i] ?? 0;
          out += 1;
        }
    };
    added.forEach((f, a) => {
      copyTo(places[a] as number);
      const key = newKeys[a] as string;
      keys[out] = key;
      terms[out] = newOthers[a] ?? key;
      articles[out] = f.articles;
      out += 1;
    });
    copyTo(this.#keys.length);
    return new TermDictionary([], { keys, terms, articles });
  }

  get size(): number {
    return this.#keys.length;
  }

  /** The entries in key order, for suggestions (`suggest-words.ts`): folded keys, words, articles per word. */
  sorted(): { readonly keys: readonly string[]; readonly terms: readonly string[]; readonly articles: Uint32Array } {
    return { keys: this.#keys, terms: this.#terms, articles: this.#frequency };
  }

  /** Indexed words equal to `word` once both are folded (`weiss` -> `weiß`, `gruen` -> `grun`). */
  exact(word: string): string[] {
    const key = foldWord(word);
    const found: string[] = [];
    for (let i = this.#lowerBound(key); i < this.#keys.length && this.#keys[i] === key; i += 1)
      found.push(this.#terms[i] as string);
    return found;
  }

  /**
   * Indexed words whose folded key starts with `word`'s and is longer: at most `limit`, those in
   * the most articles (ties: in key order).
   */
  prefixed(word: string, limit: number): string[] {
    const key = foldWord(word);
    let from = this.#lowerBound(key);
    while (from < this.#keys.length && this.#keys[from] === key) from += 1;
    const to = this.#prefixEnd(key, from);
    const range: number[] = [];
    for (let i = from; i < to; i += 1) range.push(i);
    if (range.length > limit) {
      range.sort((a, b) => (this.#frequency[b] ?? 0) - (this.#frequency[a] ?? 0) || a - b);
      range.length = limit;
      range.sort((a, b) => a - b);
    }
    return range.map((i) => this.#terms[i] as string);
  }

  /**
   * Indexed words without digits whose folded key is 1 to `maxEdits` edits from `word`'s (optimal
   * string alignment distance: insertion, deletion, substitution, transposition of two adjacent
   * letters), nearest first, then in the most articles; at most `limit`. As in Meilisearch, an
   * edit of the first letter counts as two: with one edit allowed the first letter is kept, with
   * two it may be the only edit. The keys of the same first letter are walked as a trie (`#walk`);
   * those of another first letter are looked up, one per letter.
   */
  typos(word: string, maxEdits: number, limit: number): string[] {
    const query = foldWord(word);
    const found = new Map<number, number>(); // index -> distance
    const first = query.charAt(0);
    const from = this.#lowerBound(first);
    this.#walk(query, maxEdits, from, this.#prefixEnd(first, from), found);
    if (maxEdits >= 2 && query.length > 1) {
      const rest = query.slice(1);
      const variants = new Set([rest, `${query.charAt(1)}${first}${query.slice(2)}`]);
      for (const letter of this.#firstLetters()) if (letter !== first) variants.add(letter + rest).add(letter + query);
      for (const variant of variants)
        for (let i = this.#lowerBound(variant); i < this.#keys.length && this.#keys[i] === variant; i += 1)
          if (!found.has(i) && variant !== query && !hasDigit(variant)) found.set(i, 2);
    }
    return [...found]
      .sort((a, b) => a[1] - b[1] || (this.#frequency[b[0]] ?? 0) - (this.#frequency[a[0]] ?? 0) || a[0] - b[0])
      .slice(0, limit)
      .map(([i]) => this.#terms[i] as string);
  }

  /**
   * Indexed words without digits that are compounds of `word` and another word of this dictionary
   * (decision 0040, compounds): `word` + rest or rest + `word`, where the rest, once a German or
   * Dutch linking element (`COMPOUND_LINKS`) between the two parts is taken off, is itself a key
   * of at least `MIN_COMPOUND_PART_LETTERS` letters (`bohrer` -> `steinbohrer` when `stein` is a
   * word; `schlussel` -> `schraubenschlussel` by `schraube` + `n`). At most `limit`, those in the
   * most articles (ties: in key order). Words equal to `word` are not listed, and words whose
   * folded key is shorter than 3 letters have none.
   */
  compounds(word: string, limit: number): string[] {
    const query = foldWord(word);
    if (query.length < SUFFIX_GROUP_LETTERS) return [];
    const found = new Set<number>();
    let from = this.#lowerBound(query);
    while (from < this.#keys.length && this.#keys[from] === query) from += 1;
    const to = this.#prefixEnd(query, from);
    for (let i = from; i < to; i += 1) {
      const key = this.#keys[i] as string;
      if (!hasDigit(key) && this.#isPart(key.slice(query.length), true)) found.add(i);
    }
    for (const i of this.#endingWith(query))
      if (this.#isPart((this.#keys[i] as string).slice(0, -query.length), false)) found.add(i);
    return [...found]
      .sort((a, b) => (this.#frequency[b] ?? 0) - (this.#frequency[a] ?? 0) || a - b)
      .slice(0, limit)
      .map((i) => this.#terms[i] as string);
  }

  /**
   * Whether `rest`, the part of a compound beside the query word, is a key of this dictionary as it
   * stands or without a linking element: at its start when it follows the query word (the element
   * belongs to the first part: `schraube` + `n` + `schlussel`), at its end when it precedes it.
   */
  #isPart(rest: string, follows: boolean): boolean {
    if (rest.length < MIN_COMPOUND_PART_LETTERS) return false;
    if (this.#hasKey(rest)) return true;
    for (const link of COMPOUND_LINKS) {
      if (rest.length - link.length < MIN_COMPOUND_PART_LETTERS) continue;
      if (follows ? rest.startsWith(link) : rest.endsWith(link)) {
        const part = follows ? rest.slice(link.length) : rest.slice(0, rest.length - link.length);
        if (this.#hasKey(part)) return true;
      }
    }
    return false;
  }

  #hasKey(key: string): boolean {
    const i = this.#lowerBound(key);
    return i < this.#keys.length && this.#keys[i] === key && !hasDigit(key);
  }

  /**
   * Indexes of the keys without digits, longer than `suffix`, that end with it (at least
   * `SUFFIX_GROUP_LETTERS` long): its group of keys, sorted by the keys read backwards on its first
   * lookup, then a binary search.
   */
  *#endingWith(suffix: string): Generator<number> {
    const { groups, starts, order, sorted } = this.#suffixGroups();
    const group = groups.get(tailOf(suffix));
    if (group === undefined) return;
    const from = starts[group] as number;
    const to = starts[group + 1] as number;
    const keys = this.#keys;
    if (sorted[group] === 0) {
      order.subarray(from, to).sort((a, b) => compareReversed(keys[a] as string, keys[b] as string));
      sorted[group] = 1;
    }
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareReversed(keys[order[middle] as number] as string, suffix) < 0) low = middle + 1;
      else high = middle;
    }
    for (let s = low; s < to; s += 1) {
      const key = keys[order[s] as number] as string;
      if (!key.endsWith(suffix)) return;
      if (key.length > suffix.length) yield order[s] as number;
    }
  }

  /**
   * The keys without digits long enough to be a compound, grouped by their last
   * `SUFFIX_GROUP_LETTERS` letters (one pass and a counting sort); each group is sorted when first
   * looked up. A sort of all keys read backwards took as long as building the dictionary.
   */
  #suffixGroups(): SuffixGroups {
    if (this.#bySuffix) return this.#bySuffix;
    const none = 0xffffffff;
    const shortest = SUFFIX_GROUP_LETTERS + MIN_COMPOUND_PART_LETTERS;
    const groupOf = new Uint32Array(this.#keys.length);
    const groups = new Map<number, number>();
    const counts: number[] = [];
    for (let i = 0; i < this.#keys.length; i += 1) {
      const key = this.#keys[i] as string;
      if (key.length < shortest || hasDigit(key)) {
        groupOf[i] = none;
        continue;
      }
      const tail = tailOf(key);
      let group = groups.get(tail);
      if (group === undefined) {
        group = counts.length;
        groups.set(tail, group);
        counts.push(0);
      }
      counts[group] = (counts[group] as number) + 1;
      groupOf[i] = group;
    }
    const starts = new Uint32Array(counts.length + 1);
    for (let g = 0; g < counts.length; g += 1) starts[g + 1] = (starts[g] as number) + (counts[g] as number);
    const next = starts.slice(0, counts.length);
    const order = new Uint32Array(starts[counts.length] as number);
    for (let i = 0; i < groupOf.length; i += 1) {
      const group = groupOf[i] as number;
      if (group !== none) order[(next[group] as number)++] = i;
    }
    this.#bySuffix = { groups, starts, order, sorted: new Uint8Array(counts.length) };
    return this.#bySuffix;
  }

  /** The distinct first letters of the keys (found by skipping each letter's range). */
  #firstLetters(): string[] {
    if (!this.#letters) {
      const letters: string[] = [];
      for (let i = 0; i < this.#keys.length;) {
        const letter = (this.#keys[i] as string).charAt(0);
        letters.push(letter);
        i = this.#prefixEnd(letter, i);
      }
      this.#letters = letters;
    }
    return this.#letters;
  }

  /**
   * Adds to `found` the keys of `[from, to)` without digits 1 to `maxEdits` edits from `query`.
   * The sorted keys are walked as a trie: one row of the distance table per letter of the path,
   * shared by the keys with that prefix, only its band of `maxEdits` around the diagonal
   * computed, and every key under a prefix whose row exceeds `maxEdits` skipped by a binary search.
   */
  #walk(query: string, maxEdits: number, from: number, to: number, found: Map<number, number>): void {
    const m = query.length;
    const keys = this.#keys;
    const over = maxEdits + 1;
    const rows: Int32Array[] = [Int32Array.from({ length: m + 2 }, (_, j) => (j <= m ? Math.min(j, over) : over))];
    let path = ''; // the prefix whose rows `rows[1..path.length]` hold
    let i = from;
    while (i < to) {
      const key = keys[i] as string;
      // A key of another length cannot match: its rows are not needed (`path` keeps the rows of
      // the last key walked, and the next key reuses those of the prefix they share).
      if (key.length > m + maxEdits || key.length < m - maxEdits) {
        i += 1;
        continue;
      }
      let depth = 0;
      const shared = Math.min(path.length, key.length);
      while (depth < shared && path.charCodeAt(depth) === key.charCodeAt(depth)) depth += 1;
      let dead = -1;
      for (let d = depth + 1; d <= key.length; d += 1) {
        const row = (rows[d] ??= new Int32Array(m + 2));
        const above = rows[d - 1] as Int32Array;
        const c = key.charCodeAt(d - 1);
        // Only the band |d - j| <= maxEdits can hold a value within the bound; the cells beside it
        // stand for every value beyond (`over`), which is all the next row reads of them.
        const low = Math.max(1, d - maxEdits);
        const high = Math.min(m, d + maxEdits);
        row[0] = d;
        if (low > 1) row[low - 1] = over;
        row[high + 1] = over;
        let least = d - maxEdits > 0 ? over : d;
        for (let j = low; j <= high; j += 1) {
          const q = query.charCodeAt(j - 1);
          let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1);
          const diagonal = (above[j - 1] as number) + (q === c ? 0 : 1);
          if (diagonal < best) best = diagonal;
          if (d > 1 && j > 1 && c === query.charCodeAt(j - 2) && key.charCodeAt(d - 2) === q) {
            const swapped = ((rows[d - 2] as Int32Array)[j - 2] as number) + 1;
            if (swapped < best) best = swapped;
          }
          row[j] = best;
          if (best < least) least = best;
        }
        // A row whose least value exceeds the bound only grows below it (a transposition reaches
        // back two rows, but whatever it reaches was within one edit of this row).
        if (least > maxEdits) {
          dead = d;
          break;
        }
      }
      if (dead > 0) {
        path = key.slice(0, dead - 1);
        i = this.#prefixEndNear(key.slice(0, dead), i, to);
        continue;
      }
      path = key;
      const distance = (rows[key.length] as Int32Array)[m] as number;
      if (distance > 0 && distance <= maxEdits && !hasDigit(key)) found.set(i, distance);
      i += 1;
    }
  }

  /** First index whose key is not below `key`. */
  /** Index of the first entry ordered after (`key`, `term`). */
  #placeOf(key: string, term: string): number {
    let i = this.#lowerBound(key);
    while (i < this.#keys.length && this.#keys[i] === key && (this.#terms[i] as string) < term) i += 1;
    return i;
  }

  #lowerBound(key: string): number {
    let low = 0;
    let high = this.#keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#keys[middle] as string) < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * `#prefixEnd` within `[from, to)` for a `from` whose key starts with `prefix`, by galloping
   * from it: the keys a dead prefix of the walk stands for are mostly few, and their neighbours
   * are in memory the walk just read (a binary search over the whole range took 40% of it).
   */
  #prefixEndNear(prefix: string, from: number, to: number): number {
    const keys = this.#keys;
    let low = from + 1;
    let high = low;
    for (let step = 1; high < to && (keys[high] as string).startsWith(prefix); step *= 2) {
      low = high + 1;
      high += step;
    }
    if (high > to) high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((keys[middle] as string).startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First index from `from` (where keys are not below `prefix`) whose key does not start with `prefix`. */
  #prefixEnd(prefix: string, from: number): number {
    let low = from;
    let high = this.#keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#keys[middle] as string).startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Keys that can be compounds, by group of their last letters (`tailOf`): `order[starts[g]..starts[g + 1])`
 * are the indexes of group `g`, sorted by the keys read backwards once `sorted[g]` is 1.
 */
interface SuffixGroups {
  readonly groups: ReadonlyMap<number, number>;
  readonly starts: Uint32Array;
  readonly order: Uint32Array;
  readonly sorted: Uint8Array;
}

/** The last `SUFFIX_GROUP_LETTERS` UTF-16 units of `key` as one number (16 bits each, exact in a double). */
function tailOf(key: string): number {
  const n = key.length;
  return key.charCodeAt(n - 1) * 0x100000000 + key.charCodeAt(n - 2) * 0x10000 + key.charCodeAt(n - 3);
}

/** Orders strings by their text read from the end (UTF-16 units), a shorter one first when it ends the other. */
function compareReversed(a: string, b: string): number {
  let i = a.length - 1;
  let j = b.length - 1;
  for (; i >= 0 && j >= 0; i -= 1, j -= 1) {
    const d = a.charCodeAt(i) - b.charCodeAt(j);
    if (d !== 0) return d;
  }
  return i - j;
}

/**
 * Linking elements ("Fugen") between the parts of a German or Dutch compound, longest first:
 * `Arbeit-s-schuh`, `Schraube-n-schlüssel`, `Hund-e-leine`, `boek-en-kast`, `stad-s-plan`.
 */
export const COMPOUND_LINKS = ['es', 'en', 's', 'n', 'e'] as const;
/**
 * Letters (UTF-16 units of the folded key) by which the keys are grouped for compound lookups:
 * shorter words have no compounds. Typed words need 4 letters (`MIN_COMPOUND_LETTERS`), but folding
 * may take one off (`boek` -> `bok`).
 */
const SUFFIX_GROUP_LETTERS = 3;
/** Shortest other part of a compound, in letters (`Akku` in `Akkubohrer`; not `ab` in `Ablage`). */
export const MIN_COMPOUND_PART_LETTERS = 3;

/** Whether `word` holds a digit (numbers, article ids, GTINs and part numbers get no typos). */
export function hasDigit(word: string): boolean {
  // ASCII first: a Unicode property test costs about ten times as much.
  for (let i = 0; i < word.length; i += 1) {
    const c = word.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
    if (c >= 128) return NUMBER.test(word);
  }
  return false;
}

const NUMBER = /\p{N}/u;

/**
 * The key words are compared by: `ß` as `ss`, and `ae`, `oe`, `ue` as `a`, `o`, `u` (the index
 * already holds `ä`, `ö`, `ü` as `a`, `o`, `u`: accents are removed), except after a vowel or `q`
 * (`bauer`, `feuer`, `quelle` stay), so a buyer's `gruen`, `weiss` find `grün`, `weiß` and the
 * other way round.
 */
export function foldWord(word: string): string {
  let text = word.includes('ß') ? word.replaceAll('ß', 'ss') : word;
  if (!/[aou]e/.test(text)) return text;
  text = text.replace(/(^|[^aeiouyq])([aou])e/g, '$1$2');
  return text;
}
