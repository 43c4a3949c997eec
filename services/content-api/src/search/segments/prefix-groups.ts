import { foldWord } from './term-dictionary.js';
import { hashBytes } from './varint-bytes.js';

/** A word and the number of articles holding it (0 in a change: no article does any more). */
type Entry = readonly [term: string, articles: number];

/**
 * Words as UTF-8 text, one after the other, each followed by a line break but the last
 * (`bytes[from..to)`), with their article counts in the same order (`articles`).
 */
export interface WordBytes {
  readonly bytes: Uint8Array;
  readonly from: number;
  readonly to: number;
  readonly articles: ArrayLike<number>;
}

/** UTF-16 units of a folded key that name its group. */
const GROUP_UNITS = 3;

/** Prefix lookups whose answers one `PrefixGroups` keeps, least recently used first out. */
const MAX_PREFIXES = 512;

/**
 * Changed words kept apart from the packed ones before they are packed together again: this
 * many, or an eighth of the packed words when that is more (so packing again, a pass over all
 * of them, is paid once per that many changed words).
 */
const MIN_CHANGES_APART = 65_536;

const LINE_BREAK = 0x0a;

/** The group of a folded key: its first `GROUP_UNITS` UTF-16 units (the whole key when shorter). */
function groupOf(key: string): string {
  return key.length <= GROUP_UNITS ? key : key.slice(0, GROUP_UNITS);
}

/** `groupOf(key)` as a number: its UTF-16 units, and for a shorter key its length apart. */
function groupCode(key: string): number {
  const n = key.length;
  // Three units, as `GROUP_UNITS`.
  if (n >= GROUP_UNITS) return key.charCodeAt(0) * 2 ** 32 + key.charCodeAt(1) * 2 ** 16 + key.charCodeAt(2);
  return 2 ** 48 * (n + 1) + (n > 0 ? key.charCodeAt(0) * 2 ** 16 : 0) + (n > 1 ? key.charCodeAt(1) : 0);
}

/** `groupCode` of the word `bytes[from..to)` when it is ASCII and its own key (`foldWord`), else -1. */
function plainGroupCode(bytes: Uint8Array, from: number, to: number): number {
  let previous = 0;
  for (let i = from; i < to; i += 1) {
    const byte = bytes[i]!;
    // Non-ASCII (`ß` and the rest), or an `e` after `a`, `o`, `u`: folding may change the word.
    if (byte >= 0x80 || (byte === 0x65 && (previous === 0x61 || previous === 0x6f || previous === 0x75))) return -1;
    previous = byte;
  }
  const n = to - from;
  if (n >= GROUP_UNITS) return bytes[from]! * 2 ** 32 + bytes[from + 1]! * 2 ** 16 + bytes[from + 2]!;
  return 2 ** 48 * (n + 1) + (n > 0 ? bytes[from]! * 2 ** 16 : 0) + (n > 1 ? bytes[from + 1]! : 0);
}

/**
 * The grouped words, packed: word `i` (in group order) is `bytes[starts[i]..starts[i + 1])` in
 * UTF-8, held by `articles[i]` articles; group `g` (named `names[g]`) is words
 * `groupStarts[g]..groupStarts[g + 1]`: first those that are their own keys (`foldWord`), up to
 * `plainEnds[g]`, then those folding changes, whose keys `folded` has.
 */
interface Packed {
  readonly bytes: Buffer;
  readonly starts: Uint32Array;
  readonly articles: Uint32Array;
  readonly folded: ReadonlyMap<number, string>;
  readonly names: readonly string[];
  readonly groups: ReadonlyMap<string, number>;
  readonly groupStarts: Uint32Array;
  readonly plainEnds: Uint32Array;
}

/** A changed word: its article count now (0: gone) and its folded key. */
interface Change {
  readonly articles: number;
  readonly key: string;
}

/** Changes by group, then by word: each word's latest. */
type Changes = ReadonlyMap<string, ReadonlyMap<string, Change>>;

/**
 * Words for prefix lookups only (`prefixed`), answered as a `TermDictionary` of all of them
 * answers, without sorting every word first: the words are grouped by the first three letters
 * of their folded key, and a prefix looked up scans its group (or, for a prefix of fewer
 * letters, the groups it begins) for the words that start with it, keeping the few in the most
 * articles. Meant for the words with digits of a segment (article ids, GTINs, part numbers:
 * millions at 10 M articles, of which a search asks a few prefixes), whose whole dictionary
 * took seconds to sort.
 *
 * The words are packed in three typed arrays (UTF-8 text, offsets, article counts), not held
 * as a string and an array slot or two each: at 10 M articles on PostgreSQL those strings were
 * about 1 GB of heap that every garbage collection walked (decision 0055). A lookup compares a
 * word's bytes in place and decodes only the words it keeps.
 *
 * Immutable from outside: `patched` returns another one, sharing the packed words; the changes
 * since they were packed are kept apart, by group, each word's latest.
 */
export class PrefixGroups {
  readonly #packed: Packed;
  readonly #changes: Changes;
  /** Words in `#changes`. */
  readonly #changed: number;
  /** Answers of the prefixes looked up (`limit` and key), most recently used last. */
  readonly #answers: Map<string, readonly string[]>;
  /** Names of the groups with packed or changed words (made on first use). */
  #names: readonly string[] | undefined;

  private constructor(packed: Packed, changes: Changes, changed: number, answers: Map<string, readonly string[]>) {
    this.#packed = packed;
    this.#changes = changes;
    this.#changed = changed;
    this.#answers = answers;
  }

  /** `entries`: each distinct word once, with the number of articles holding it. */
  static of(entries: Iterable<Entry>): PrefixGroups {
    const terms: string[] = [];
    const articles: number[] = [];
    for (const [term, count] of entries) {
      terms.push(term);
      articles.push(count);
    }
    const bytes = Buffer.from(terms.join('\n'), 'utf8');
    return new PrefixGrouping(terms.length > 0 ? [{ bytes, from: 0, to: bytes.length, articles }] : []).step(Infinity)!;
  }

  /** The words `PrefixGrouping` packed (for it only). */
  static packed(packed: Packed): PrefixGroups {
    return new PrefixGroups(packed, new Map(), 0, new Map());
  }

  /**
   * These words after `changes`: each word's article count now, 0 for a word no article holds
   * any more (the words `TermDictionary.patched` would give). Answers of prefixes the changes
   * touch are dropped, the others kept.
   */
  patched(changes: Iterable<Entry>): PrefixGroups {
    const merged = new Map(this.#changes);
    // The keys changed, by group.
    const copied = new Map<string, string[]>();
    let changed = this.#changed;
    for (const [term, articles] of changes) {
      const key = foldWord(term);
      const group = groupOf(key);
      let words = merged.get(group);
      let keys = copied.get(group);
      if (!keys) {
        words = new Map(words);
        merged.set(group, words);
        copied.set(group, (keys = []));
      }
      if (!words!.has(term)) changed += 1;
      (words as Map<string, Change>).set(term, { articles, key });
      keys.push(key);
    }
    if (copied.size === 0) return this;
    const answers = new Map<string, readonly string[]>();
    for (const [asked, answer] of this.#answers) {
      const prefix = asked.slice(asked.indexOf(' ') + 1);
      const touched = groupNames(prefix, copied.keys()).some((name) =>
        copied.get(name)?.some((key) => key.startsWith(prefix)),
      );
      if (!touched) answers.set(asked, answer);
    }
    if (changed > Math.max(MIN_CHANGES_APART, this.#packed.articles.length / 8)) {
      const repacked = repack(this.#packed, merged);
      return new PrefixGroups(repacked.#packed, new Map(), 0, answers);
    }
    return new PrefixGroups(this.#packed, merged, changed, answers);
  }

  /** Words kept apart as changed since the words were packed (for tests). */
  get changedApart(): number {
    return this.#changed;
  }

  /**
   * Words whose folded key starts with `word`'s and is longer: at most `limit`, those in the most
   * articles (ties: in key order), in key order, as `TermDictionary.prefixed` over all the words
   * gives them.
   */
  prefixed(word: string, limit: number): string[] {
    const key = foldWord(word);
    const asked = `${limit} ${key}`;
    let answer = this.#answers.get(asked);
    if (answer) this.#answers.delete(asked);
    else {
      answer = this.#lookUp(key, limit);
      for (const oldest of this.#answers.keys()) {
        if (this.#answers.size < MAX_PREFIXES) break;
        this.#answers.delete(oldest);
      }
    }
    this.#answers.set(asked, answer);
    return [...answer];
  }

  /** Prefixes with an answer kept (for tests). */
  get madePrefixes(): number {
    return this.#answers.size;
  }

  #lookUp(key: string, limit: number): string[] {
    if (limit <= 0) return [];
    const packed = this.#packed;
    const best = new BestWords(packed, limit);
    const names = groupNames(key, (this.#names ??= this.#allNames()));
    // A key that is not whole UTF-16 (a lone surrogate) has no UTF-8 of its own: compared as text.
    const encoded = Buffer.from(key, 'utf8');
    const keyBytes = encoded.toString('utf8') === key ? encoded : undefined;
    for (const name of names) {
      const changed = this.#changes.get(name);
      const group = packed.groups.get(name);
      if (group !== undefined) {
        const { bytes, starts, folded } = packed;
        const plainEnd = packed.plainEnds[group]!;
        for (let i = packed.groupStarts[group]!; i < plainEnd; i += 1) {
          if (keyBytes) {
            const from = starts[i]!;
            const n = keyBytes.length;
            if (starts[i + 1]! - from <= n) continue;
            let k = 0;
            while (k < n && bytes[from + k] === keyBytes[k]) k += 1;
            if (k < n) continue;
          } else {
            const wordKey = best.term(i);
            if (!startsLonger(wordKey, key)) continue;
          }
          best.offerPacked(i, true, changed);
        }
        const end = packed.groupStarts[group + 1]!;
        for (let i = plainEnd; i < end; i += 1) {
          const wordKey = folded.get(i)!;
          if (!startsLonger(wordKey, key)) continue;
          best.offerPacked(i, false, changed);
        }
      }
      if (changed)
        for (const [term, change] of changed)
          if (change.articles > 0 && startsLonger(change.key, key)) best.keepWord(change.articles, term, change.key);
    }
    return best.inKeyOrder();
  }

  #allNames(): string[] {
    const names = new Set(this.#packed.names);
    for (const name of this.#changes.keys()) names.add(name);
    return [...names];
  }
}

/** `packed` with `changes` applied, packed again (`PrefixGrouping`). */
function repack(packed: Packed, changes: Changes): PrefixGroups {
  const hashes = new Set<number>();
  const added: string[] = [];
  const addedArticles: number[] = [];
  for (const words of changes.values())
    for (const [term, change] of words) {
      const bytes = Buffer.from(term, 'utf8');
      hashes.add(hashBytes(bytes, 0, bytes.length));
      if (change.articles > 0) {
        added.push(term);
        addedArticles.push(change.articles);
      }
    }
  // The packed words the changes leave alone, a line each: only those whose hash a change has are decoded.
  const { bytes, starts, articles, folded } = packed;
  const text = Buffer.allocUnsafe(bytes.length + articles.length);
  const kept = new Uint32Array(articles.length);
  let at = 0;
  let n = 0;
  for (let i = 0; i < articles.length; i += 1) {
    const from = starts[i]!;
    const to = starts[i + 1]!;
    if (hashes.has(hashBytes(bytes, from, to))) {
      const term = bytes.toString('utf8', from, to);
      if (changes.get(groupOf(folded.get(i) ?? term))?.has(term)) continue;
    }
    if (n > 0) text[at++] = LINE_BREAK;
    at += bytes.copy(text, at, from, to);
    kept[n++] = articles[i]!;
  }
  const lists: WordBytes[] = [{ bytes: text, from: 0, to: at, articles: kept.subarray(0, n) }];
  if (added.length > 0) {
    const joined = Buffer.from(added.join('\n'), 'utf8');
    lists.push({ bytes: joined, from: 0, to: joined.length, articles: addedArticles });
  }
  return new PrefixGrouping(lists).step(Infinity)!;
}

/**
 * A word kept by `BestWords`: packed (`index`; `plain` when it is its own key) or changed
 * (`term` and `key` given).
 */
interface Kept {
  articles: number;
  index: number;
  plain: boolean;
  term: string | undefined;
  key: string | undefined;
}

/**
 * The `limit` words in the most articles of those offered, ties broken by key then word in
 * UTF-16 order (`TermDictionary`'s order), as a heap whose root is the one to go first. Packed
 * words are compared by their bytes where that order is the same (ASCII and text below U+E000
 * sort alike as UTF-8 and UTF-16), and decoded only when kept or when it is not.
 */
class BestWords {
  readonly #packed: Packed;
  readonly #limit: number;
  readonly #heap: Kept[] = [];

  constructor(packed: Packed, limit: number) {
    this.#packed = packed;
    this.#limit = limit;
  }

  /** The text of packed word `index`. */
  term(index: number): string {
    const { bytes, starts } = this.#packed;
    return bytes.toString('utf8', starts[index], starts[index + 1]);
  }

  /**
   * Offers packed word `index` (`plain` when it is its own key), unless `changed` names it (the
   * changed word is offered instead). It is decoded only when it would be kept.
   */
  offerPacked(index: number, plain: boolean, changed: ReadonlyMap<string, Change> | undefined): void {
    const articles = this.#packed.articles[index]!;
    if (!this.#wouldKeep(articles, index, plain)) return;
    if (changed?.has(this.term(index))) return;
    this.#offer({ articles, index, plain, term: undefined, key: undefined });
  }

  /** Whether packed word `index`, in `articles` articles, would be kept if offered now. */
  #wouldKeep(articles: number, index: number, plain: boolean): boolean {
    const worst = this.#heap[0];
    if (this.#heap.length < this.#limit || !worst) return true;
    if (articles !== worst.articles) return articles > worst.articles;
    // Most words with digits are in one article each: nearly every word ties, so no object here.
    const bytes = plain && worst.plain ? this.#compareBytes(index, worst.index) : undefined;
    if (bytes !== undefined) return bytes < 0;
    return this.#before({ articles, index, plain, term: undefined, key: undefined }, worst);
  }

  keepWord(articles: number, term: string, key: string): void {
    this.#offer({ articles, index: -1, plain: false, term, key });
  }

  /** The words kept, in key order (then word). */
  inKeyOrder(): string[] {
    const kept = [...this.#heap];
    for (const word of kept) this.#text(word);
    kept.sort((a, b) => compareText(a.key!, b.key!) || compareText(a.term!, b.term!));
    return kept.map((word) => word.term!);
  }

  #offer(word: Kept): void {
    const heap = this.#heap;
    if (heap.length < this.#limit) {
      heap.push(word);
      this.#up(heap.length - 1);
    } else if (heap[0] && this.#worse(heap[0], word)) {
      heap[0] = word;
      this.#down(0);
    }
  }

  /** Whether `a` goes before `b`: in more articles, or as many and first in key order. */
  #before(a: Kept, b: Kept): boolean {
    if (a.articles !== b.articles) return a.articles > b.articles;
    const bytes = a.plain && b.plain ? this.#compareBytes(a.index, b.index) : undefined;
    if (bytes !== undefined) return bytes < 0;
    this.#text(a);
    this.#text(b);
    return (compareText(a.key!, b.key!) || compareText(a.term!, b.term!)) < 0;
  }

  /** Whether `a` is worse than `b`, so leaves the heap first (the root is the worst). */
  #worse(a: Kept, b: Kept): boolean {
    return this.#before(b, a);
  }

  /**
   * Two packed words that are their own keys compared by their bytes, when UTF-8 order is
   * UTF-16 order for them (no byte from 0xEE up: no text from U+E000 up); else undefined.
   */
  #compareBytes(a: number, b: number): number | undefined {
    const { bytes, starts } = this.#packed;
    let i = starts[a]!;
    let j = starts[b]!;
    const aEnd = starts[a + 1]!;
    const bEnd = starts[b + 1]!;
    for (; i < aEnd && j < bEnd; i += 1, j += 1) {
      const x = bytes[i]!;
      const y = bytes[j]!;
      if (x >= 0xee || y >= 0xee) return undefined;
      if (x !== y) return x - y;
    }
    return aEnd - i - (bEnd - j);
  }

  #text(word: Kept): void {
    if (word.term !== undefined) return;
    word.term = this.term(word.index);
    word.key = this.#packed.folded.get(word.index) ?? word.term;
  }

  #up(at: number): void {
    const heap = this.#heap;
    for (let i = at; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.#worse(heap[i]!, heap[parent]!)) return;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  #down(at: number): void {
    const heap = this.#heap;
    for (let i = at; ;) {
      let first = i;
      for (const child of [2 * i + 1, 2 * i + 2])
        if (child < heap.length && this.#worse(heap[child]!, heap[first]!)) first = child;
      if (first === i) return;
      [heap[first], heap[i]] = [heap[i]!, heap[first]!];
      i = first;
    }
  }
}

/** Whether key `word` starts with `prefix` and is longer (a word a prefix lookup finds). */
function startsLonger(word: string, prefix: string): boolean {
  return word.length > prefix.length && word.startsWith(prefix);
}

/** UTF-16 order, as `TermDictionary` sorts. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Names (of `names`) of the groups that can hold a key starting with `prefix`. */
function groupNames(prefix: string, names: Iterable<string>): string[] {
  if (prefix.length >= GROUP_UNITS) return [prefix.slice(0, GROUP_UNITS)];
  const found: string[] = [];
  for (const name of names) if (name.startsWith(prefix)) found.push(name);
  return found;
}

/** A `Uint32Array` that grows. */
class GrowingList {
  values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/**
 * Groups and packs words (`PrefixGroups`) a slice at a time (`step`), so millions of words can
 * be grouped between other work of the thread instead of holding it for seconds. Two passes
 * over the words' bytes: the first finds each word's group (a number made of its first letters:
 * no string is cut from it, and none is made for a word folding leaves alone) and counts each
 * group's words and bytes; the second copies each word into its group's place. The lists are
 * taken from `lists` only as the first pass reaches them, and kept for the second.
 */
export class PrefixGrouping {
  readonly #lists: Iterator<WordBytes>;
  readonly #taken: WordBytes[] = [];
  /** The list being read (an index in `#taken`), its next word's start, and that word's index in it. */
  #list = -1;
  #at = 0;
  #word = 0;
  #pass: 1 | 2 = 1;
  /** Words read so far over all lists (pass 1), or copied (pass 2). */
  #words = 0;
  /**
   * Each word's part of its group (pass 1): part `2g` of group `g` holds the words that are their
   * own keys, part `2g + 1` those folding changes; and each part's words and bytes.
   */
  #partOfWord = new GrowingList();
  readonly #codes = new Map<number, number>();
  readonly #names: string[] = [];
  readonly #partWords = new GrowingList();
  readonly #partBytes = new GrowingList();
  /** Keys of the words folding changes, by their index over all lists (pass 1), then packed. */
  #folded = new Map<number, string>();
  #packing:
    | {
        bytes: Buffer;
        starts: Uint32Array;
        articles: Uint32Array;
        wordAt: Uint32Array;
        byteAt: Float64Array;
        folded: Map<number, string>;
      }
    | undefined;
  #groups: PrefixGroups | undefined;

  constructor(lists: Iterable<WordBytes>) {
    this.#lists = lists[Symbol.iterator]();
  }

  /** Passes over up to `words` more words; the groups once both passes are done (then always them), else undefined. */
  step(words: number): PrefixGroups | undefined {
    if (this.#groups) return this.#groups;
    let left = words;
    while (left > 0) {
      const list = this.#nextList();
      if (!list) {
        if (this.#pass === 1) {
          this.#startPacking();
          continue;
        }
        this.#groups = this.#finish();
        return this.#groups;
      }
      left -= this.#pass === 1 ? this.#group(list, left) : this.#pack(list, left);
    }
    return undefined;
  }

  /** The list the pass is in, the next one when it is done with it (undefined: none is left). */
  #nextList(): WordBytes | undefined {
    for (;;) {
      const list = this.#taken[this.#list];
      if (list && this.#word < list.articles.length) return list;
      if (list && this.#at !== (list.articles.length === 0 ? list.from : list.to + 1))
        throw new RangeError(`a list of ${list.articles.length} words holds more (bytes ${list.from} to ${list.to})`);
      this.#list += 1;
      if (this.#list === this.#taken.length) {
        if (this.#pass === 2) return undefined;
        const next = this.#lists.next();
        if (next.done) return undefined;
        this.#taken.push(next.value);
      }
      const taken = this.#taken[this.#list]!;
      this.#at = taken.from;
      this.#word = 0;
    }
  }

  /** The end of the word at `#at` of `list` (its line break, or the list's end). */
  #end(list: WordBytes): number {
    if (this.#at > list.to) throw new RangeError(`a list of ${list.articles.length} words holds fewer`);
    const end = list.bytes.indexOf(LINE_BREAK, this.#at);
    return end < 0 || end > list.to ? list.to : end;
  }

  /** Groups up to `limit` words of `list` from `#at`; how many it grouped. */
  #group(list: WordBytes, limit: number): number {
    const { bytes } = list;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = Math.min(list.articles.length, this.#word + limit);
    const done = n - this.#word;
    for (; this.#word < n; this.#word += 1, this.#words += 1) {
      const end = this.#end(list);
      let code = plainGroupCode(bytes, this.#at, end);
      let part = 0;
      if (code < 0) {
        const term = text.toString('utf8', this.#at, end);
        const key = foldWord(term);
        if (key !== term) {
          this.#folded.set(this.#words, key);
          part = 1;
        }
        code = groupCode(key);
        if (!this.#codes.has(code)) this.#newGroup(code, groupOf(key));
      } else if (!this.#codes.has(code)) {
        this.#newGroup(code, text.toString('latin1', this.#at, Math.min(end, this.#at + GROUP_UNITS)));
      }
      part += 2 * this.#codes.get(code)!;
      this.#partOfWord.push(part);
      this.#partWords.values[part] = this.#partWords.values[part]! + 1;
      this.#partBytes.values[part] = this.#partBytes.values[part]! + end - this.#at;
      this.#at = end + 1;
    }
    return done;
  }

  #newGroup(code: number, name: string): void {
    this.#codes.set(code, this.#names.length);
    this.#names.push(name);
    for (const list of [this.#partWords, this.#partWords, this.#partBytes, this.#partBytes]) list.push(0);
  }

  #startPacking(): void {
    const parts = 2 * this.#names.length;
    // Where each part's next word and its bytes go: first each part's first.
    const wordAt = new Uint32Array(parts + 1);
    const byteAt = new Float64Array(parts + 1);
    for (let p = 0; p < parts; p += 1) {
      wordAt[p + 1] = wordAt[p]! + this.#partWords.values[p]!;
      byteAt[p + 1] = byteAt[p]! + this.#partBytes.values[p]!;
    }
    const totalBytes = byteAt[parts]!;
    if (totalBytes >= 2 ** 32)
      throw new RangeError(`${totalBytes} bytes of words with digits are more than a segment packs`);
    this.#packing = {
      // Every byte is written in pass 2.
      bytes: Buffer.allocUnsafeSlow(totalBytes),
      starts: new Uint32Array(this.#words + 1),
      articles: new Uint32Array(this.#words),
      wordAt,
      byteAt,
      folded: new Map(),
    };
    this.#pass = 2;
    this.#list = -1;
    this.#words = 0;
  }

  /** Copies up to `limit` words of `list` from `#at` into their groups' places; how many it copied. */
  #pack(list: WordBytes, limit: number): number {
    const { bytes, articles } = list;
    const packing = this.#packing!;
    const n = Math.min(articles.length, this.#word + limit);
    const done = n - this.#word;
    for (; this.#word < n; this.#word += 1, this.#words += 1) {
      const end = this.#end(list);
      const part = this.#partOfWord.values[this.#words]!;
      const index = packing.wordAt[part]!;
      const start = packing.byteAt[part]!;
      packing.wordAt[part] = index + 1;
      packing.byteAt[part] = start + end - this.#at;
      packing.starts[index] = start;
      for (let i = this.#at, j = start; i < end; i += 1, j += 1) packing.bytes[j] = bytes[i]!;
      packing.articles[index] = articles[this.#word] ?? 0;
      if (part % 2 === 1) packing.folded.set(index, this.#folded.get(this.#words)!);
      this.#at = end + 1;
    }
    return done;
  }

  #finish(): PrefixGroups {
    const packing = this.#packing!;
    packing.starts[this.#words] = packing.bytes.length;
    // Each part's next place is now the next part's first: where each group's parts end.
    const groupStarts = new Uint32Array(this.#names.length + 1);
    const plainEnds = new Uint32Array(this.#names.length);
    for (let g = 0; g < this.#names.length; g += 1) {
      plainEnds[g] = packing.wordAt[2 * g]!;
      groupStarts[g + 1] = packing.wordAt[2 * g + 1]!;
    }
    const groups = new Map(this.#names.map((name, g) => [name, g]));
    // Only the packed words stay: what the passes kept (4 bytes a word and the lists) goes.
    this.#folded = new Map();
    this.#partOfWord = new GrowingList();
    this.#packing = undefined;
    this.#codes.clear();
    this.#taken.length = 0;
    return PrefixGroups.packed({
      bytes: packing.bytes,
      starts: packing.starts,
      articles: packing.articles,
      folded: packing.folded,
      names: this.#names,
      groups,
      groupStarts,
      plainEnds,
    });
  }
}
