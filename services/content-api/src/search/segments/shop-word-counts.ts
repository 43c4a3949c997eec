import { hasDigit } from './term-dictionary.js';

/**
 * The words of one shop's articles and the number of articles holding each, as a segment's
 * vocabulary for suggestions (decision 0040, "The 1 M run"). Counts what the text index counts:
 * an article's `searchText` (its `searchWords` joined by spaces), each distinct word once per
 * article. Words with digits are left out, as from every suggestion dictionary.
 */
/** The words of the article being counted (one article at a time: counting never awaits). */
const SEEN = new Set<string>();

export class ShopWordCounts {
  readonly #counts: Map<string, number>;

  constructor(counts: Map<string, number> = new Map()) {
    this.#counts = counts;
  }

  /** Number of distinct words counted. */
  get size(): number {
    return this.#counts.size;
  }

  /** Articles counted holding `word`. */
  get(word: string): number {
    return this.#counts.get(word) ?? 0;
  }

  /** Counts the words of one article's `searchText` (`by` -1 takes them away again). */
  add(searchText: string, by: 1 | -1 = 1): void {
    const counts = this.#counts;
    const seen = SEEN;
    seen.clear();
    const length = searchText.length;
    for (let start = 0; start < length;) {
      let end = searchText.indexOf(' ', start);
      if (end === -1) end = length;
      const word = searchText.slice(start, end);
      start = end + 1;
      if (word.length === 0) continue;
      const n = counts.get(word);
      // A counted word has no digit: only a new one is tested.
      if (n === undefined && (by < 0 || hasDigit(word))) continue;
      if (seen.has(word)) continue;
      seen.add(word);
      const next = (n ?? 0) + by;
      if (next > 0) counts.set(word, next);
      else counts.delete(word);
    }
  }

  /**
   * Adds counts of words without digits, as another `ShopWordCounts` of articles not counted here
   * holds them (its `entries`, in their order): the same as adding those articles one by one.
   */
  merge(words: readonly string[], counts: ArrayLike<number>): void {
    const map = this.#counts;
    for (let i = 0; i < words.length; i += 1) {
      const word = words[i] as string;
      map.set(word, (map.get(word) ?? 0) + (counts[i] as number));
    }
  }

  /** Each word with its article count, in no particular order. */
  entries(): IterableIterator<[string, number]> {
    return this.#counts.entries();
  }

  /** The stored form: `word count` lines, UTF-8. */
  encode(): Buffer {
    let text = '';
    for (const [word, n] of this.#counts) text += `${word} ${n}\n`;
    return Buffer.from(text, 'utf8');
  }

  static decode(data: Uint8Array): ShopWordCounts {
    const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
    const counts = new Map<string, number>();
    let start = 0;
    while (start < text.length) {
      const space = text.indexOf(' ', start);
      const end = text.indexOf('\n', space);
      if (space < 0 || end < 0) throw new Error('stored shop words are damaged: import the shop again');
      counts.set(text.slice(start, space), Number(text.slice(space + 1, end)));
      start = end + 1;
    }
    return new ShopWordCounts(counts);
  }
}

/**
 * The words of a run of consecutive articles (a parse worker's piece), counted as `ShopWordCounts`
 * counts them, where they were parsed: the writing thread merges one count per distinct word
 * instead of reading every article's words (decision 0053).
 */
export interface ArticleRunWords {
  /** Articles in the run; the first is the one `markRunWords` marked. */
  readonly articles: number;
  /** Id of the run's last article. */
  readonly lastId: string;
  /** `ShopWordCounts.entries` of the run's articles, in their order. */
  readonly words: readonly string[];
  readonly counts: Uint32Array;
}

/** Counts the words of a run of articles' `searchText`s for `ArticleRunWords`. */
export function countRunWords(searchTexts: readonly string[]): Pick<ArticleRunWords, 'words' | 'counts'> {
  const run = new ShopWordCounts();
  for (const text of searchTexts) run.add(text);
  const words: string[] = [];
  const counts = new Uint32Array(run.size);
  for (const [word, n] of run.entries()) {
    counts[words.length] = n;
    words.push(word);
  }
  return { words, counts };
}

/** Runs by their first article (a weak key: a run no store counts goes with its articles). */
const RUNS = new WeakMap<object, ArticleRunWords>();

/** Marks `first` as the first article of a run whose words are counted (`ShopWordCounter`). */
export function markRunWords(first: object, run: ArticleRunWords): void {
  RUNS.set(first, run);
}

/**
 * A shop's word counts as a store takes its articles: a run's counts (`markRunWords`) are merged
 * when every article of the run was taken, in order; otherwise each article taken is counted on
 * its own. Either way the counts, and the order words are first counted in (`encode` writes them
 * in it), are those of `ShopWordCounts.add` of every article taken.
 */
export class ShopWordCounter {
  readonly counts = new ShopWordCounts();
  #run: ArticleRunWords | undefined;
  #left = 0;
  #whole = true;
  #texts: string[] = [];
  #merged = 0;

  /** Runs counted from their words counted where they were parsed. */
  get runsMerged(): number {
    return this.#merged;
  }

  /** One article handed to the store, in the order handed: `taken`, or refused (a repeated id). */
  note(article: { readonly id: string }, searchText: string, taken: boolean): void {
    const run = RUNS.get(article);
    if (run !== undefined) {
      this.#settle(undefined);
      this.#run = run;
      this.#left = run.articles;
    }
    if (this.#run === undefined) {
      if (taken) this.counts.add(searchText);
      return;
    }
    this.#left -= 1;
    if (taken) this.#texts.push(searchText);
    else this.#whole = false;
    if (this.#left === 0) this.#settle(article.id);
  }

  /** The counts, after the articles have ended (a run they ended inside is counted article by article). */
  finish(): ShopWordCounts {
    this.#settle(undefined);
    return this.counts;
  }

  /** Counts the run noted so far; `lastId` is the id of the article that ended it (none: it did not end). */
  #settle(lastId: string | undefined): void {
    const run = this.#run;
    if (run === undefined) return;
    if (this.#whole && this.#left === 0 && lastId === run.lastId) {
      this.counts.merge(run.words, run.counts);
      this.#merged += 1;
    } else for (const text of this.#texts) this.counts.add(text);
    this.#run = undefined;
    this.#left = 0;
    this.#whole = true;
    this.#texts = [];
  }
}
