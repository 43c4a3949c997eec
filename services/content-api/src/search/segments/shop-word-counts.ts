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
