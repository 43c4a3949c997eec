import { foldWord, TermDictionary } from './term-dictionary.js';

/** A word and the number of articles holding it (0 in a change: no article does any more). */
type Entry = readonly [term: string, articles: number];

/** UTF-16 units of a folded key that name its group. */
const GROUP_UNITS = 3;

/** Changes kept apart before they are folded into the groups' words. */
const MAX_PENDING = 8;

/** Prefixes whose words one `PrefixGroups` keeps in a dictionary, least recently used first out. */
const MAX_PREFIXES = 512;

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

/** A group's words as parallel lists (in no particular order), with their folded keys. */
interface GroupWords {
  readonly terms: readonly string[];
  readonly keys: readonly string[];
  readonly articles: readonly number[];
}

/** Changes by group. */
type GroupChanges = ReadonlyMap<string, readonly Entry[]>;

/**
 * Words for prefix lookups only (`prefixed`), answered as a `TermDictionary` of all of them
 * answers, without sorting every word first: the words are grouped by the first three letters
 * of their folded key, and a prefix looked up gets a dictionary of just the words that start
 * with it, made from its group (or, for a prefix of fewer letters, the groups it begins). Such
 * a dictionary holds every word the lookup can find, with the same keys and article counts,
 * so it finds the same words in the same order. Meant for the words with digits of a segment
 * (article ids, GTINs, part numbers: hundreds of thousands, of which a search asks a few
 * prefixes), whose whole dictionary took seconds to sort.
 *
 * Immutable from outside: `patched` returns another one, sharing what the changes left alone.
 */
export class PrefixGroups {
  readonly #groups: ReadonlyMap<string, GroupWords>;
  /** Changes since `#groups`, oldest first; applied to each prefix's dictionary as it is made. */
  readonly #pending: readonly GroupChanges[];
  /** Dictionaries of the words starting with each prefix looked up (every pending change applied). */
  readonly #prefixes: Map<string, TermDictionary>;
  /** Names of the groups with words or pending changes (made on first use). */
  #names: readonly string[] | undefined;

  private constructor(
    groups: ReadonlyMap<string, GroupWords>,
    pending: readonly GroupChanges[],
    prefixes: Map<string, TermDictionary>,
  ) {
    this.#groups = groups;
    this.#pending = pending;
    this.#prefixes = prefixes;
  }

  /** `entries`: each distinct word once, with the number of articles holding it. */
  static of(entries: Iterable<Entry>): PrefixGroups {
    const terms: string[] = [];
    const articles: number[] = [];
    for (const [term, count] of entries) {
      terms.push(term);
      articles.push(count);
    }
    return PrefixGroups.ofLists([{ terms, articles }]);
  }

  /** `of` the words of `lists` (each distinct word once over all lists), each with its article count. */
  static ofLists(lists: Iterable<WordLists>): PrefixGroups {
    return new PrefixGrouping(lists).step(Infinity)!;
  }

  /** The groups `PrefixGrouping` gathered (for it only). */
  static gathered(groups: ReadonlyMap<string, GroupWords>): PrefixGroups {
    return new PrefixGroups(groups, [], new Map());
  }

  /**
   * These words after `changes`: each word's article count now, 0 for a word no article holds
   * any more (the words `TermDictionary.patched` would give). Dictionaries of prefixes the
   * changes touch are patched, the others shared.
   */
  patched(changes: Iterable<Entry>): PrefixGroups {
    const byGroup = new Map<string, Entry[]>();
    for (const change of changes) {
      const group = groupOf(foldWord(change[0]));
      const list = byGroup.get(group);
      if (list) list.push(change);
      else byGroup.set(group, [change]);
    }
    if (byGroup.size === 0) return this;
    const prefixes = new Map<string, TermDictionary>();
    for (const [prefix, dictionary] of this.#prefixes) {
      const touching = changesOf(byGroup, prefix, groupNames(prefix, byGroup.keys()));
      prefixes.set(prefix, touching.length > 0 ? dictionary.patched(touching) : dictionary);
    }
    const pending = [...this.#pending, byGroup];
    return pending.length <= MAX_PENDING
      ? new PrefixGroups(this.#groups, pending, prefixes)
      : new PrefixGroups(applied(this.#groups, pending), [], prefixes);
  }

  /**
   * Words whose folded key starts with `word`'s and is longer: at most `limit`, those in the most
   * articles (ties: in key order), as `TermDictionary.prefixed` over all the words gives them.
   */
  prefixed(word: string, limit: number): string[] {
    const key = foldWord(word);
    let dictionary = this.#prefixes.get(key);
    if (dictionary) this.#prefixes.delete(key);
    else {
      const names = groupNames(key, (this.#names ??= this.#allNames()));
      const entries: Entry[] = [];
      for (const name of names) {
        const words = this.#groups.get(name);
        if (!words) continue;
        for (let i = 0; i < words.keys.length; i += 1)
          if (words.keys[i]!.startsWith(key)) entries.push([words.terms[i]!, words.articles[i]!]);
      }
      dictionary = new TermDictionary(entries);
      for (const changes of this.#pending) {
        const touching = changesOf(changes, key, names);
        if (touching.length > 0) dictionary = dictionary.patched(touching);
      }
      for (const oldest of this.#prefixes.keys()) {
        if (this.#prefixes.size < MAX_PREFIXES) break;
        this.#prefixes.delete(oldest);
      }
    }
    this.#prefixes.set(key, dictionary);
    return dictionary.prefixed(word, limit);
  }

  /** Prefixes with a dictionary made so far (for tests). */
  get madePrefixes(): number {
    return this.#prefixes.size;
  }

  #allNames(): string[] {
    const names = new Set(this.#groups.keys());
    for (const changes of this.#pending) for (const name of changes.keys()) names.add(name);
    return [...names];
  }
}

/** Names (of `names`) of the groups that can hold a key starting with `prefix`. */
function groupNames(prefix: string, names: Iterable<string>): string[] {
  if (prefix.length >= GROUP_UNITS) return [prefix.slice(0, GROUP_UNITS)];
  const found: string[] = [];
  for (const name of names) if (name.startsWith(prefix)) found.push(name);
  return found;
}

/** The changes of `changes` in groups `names` to words whose folded key starts with `prefix`. */
function changesOf(changes: GroupChanges, prefix: string, names: readonly string[]): Entry[] {
  const found: Entry[] = [];
  for (const name of names)
    for (const change of changes.get(name) ?? []) if (foldWord(change[0]).startsWith(prefix)) found.push(change);
  return found;
}

/** `groups` with `pending` applied, in order; groups no change touched are shared. */
function applied(groups: ReadonlyMap<string, GroupWords>, pending: readonly GroupChanges[]): Map<string, GroupWords> {
  const out = new Map(groups);
  const touched = new Set(pending.flatMap((changes) => [...changes.keys()]));
  for (const group of touched) {
    const words = groups.get(group);
    const counts = new Map<string, number>();
    if (words) for (let i = 0; i < words.terms.length; i += 1) counts.set(words.terms[i]!, words.articles[i]!);
    for (const changes of pending)
      for (const [term, articles] of changes.get(group) ?? []) {
        if (articles > 0) counts.set(term, articles);
        else counts.delete(term);
      }
    const terms = [...counts.keys()];
    out.set(group, { terms, keys: terms.map(foldWord), articles: [...counts.values()] });
  }
  return out;
}

/** Words and their article counts as parallel lists. */
export interface WordLists {
  readonly terms: readonly string[];
  readonly articles: readonly number[];
}

/**
 * `PrefixGroups.ofLists` a slice of words at a time (`step`), so hundreds of thousands of words
 * can be grouped between other work of the thread instead of holding it for seconds. The lists
 * are taken from `lists` only as the grouping reaches them.
 */
export class PrefixGrouping {
  readonly #lists: Iterator<WordLists>;
  #list: WordLists | undefined;
  #at = 0;
  // Grouped by a number made of the group's letters: no string is cut from each key.
  readonly #byCode = new Map<number, { name: string; terms: string[]; keys: string[]; articles: number[] }>();
  #groups: PrefixGroups | undefined;

  constructor(lists: Iterable<WordLists>) {
    this.#lists = lists[Symbol.iterator]();
  }

  /** Groups up to `words` more words; the groups once every word is grouped (then always them), else undefined. */
  step(words: number): PrefixGroups | undefined {
    if (this.#groups) return this.#groups;
    let left = words;
    while (left > 0) {
      if (!this.#list || this.#at >= this.#list.terms.length) {
        const next = this.#lists.next();
        if (next.done) {
          const groups = new Map<string, GroupWords>();
          for (const { name, ...grouped } of this.#byCode.values()) groups.set(name, grouped);
          this.#byCode.clear();
          this.#groups = PrefixGroups.gathered(groups);
          return this.#groups;
        }
        this.#list = next.value;
        this.#at = 0;
        continue;
      }
      const list = this.#list;
      const end = Math.min(list.terms.length, this.#at + left);
      for (let i = this.#at; i < end; i += 1) {
        const term = list.terms[i]!;
        const key = foldWord(term);
        const code = groupCode(key);
        let grouped = this.#byCode.get(code);
        if (!grouped) this.#byCode.set(code, (grouped = { name: groupOf(key), terms: [], keys: [], articles: [] }));
        grouped.terms.push(term);
        grouped.keys.push(key);
        grouped.articles.push(list.articles[i]!);
      }
      left -= end - this.#at;
      this.#at = end;
    }
    return undefined;
  }
}
