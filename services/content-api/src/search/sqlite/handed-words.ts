import { SLOT_SPAN } from '../segments/segment-columns.js';
import { lowerBound } from '../segments/seq-list.js';

/**
 * A query of the text index as `#fts5` of the SQLite reader asks it: articles having any of
 * `terms` (`every`: all of them), each as a word or, with `prefix`, as the start of one.
 */
export interface TextQuery {
  readonly terms: readonly string[];
  readonly prefix: boolean;
  readonly every: boolean;
}

/** The FTS5 expression of `query`: each term quoted, so operators in user text stay words. */
export function textQueryExpression(query: TextQuery): string {
  const star = query.prefix ? '*' : '';
  return query.terms.map((w) => `"${w.replaceAll('"', '""')}"${star}`).join(query.every ? ' ' : ' OR ');
}

/**
 * The tokens FTS5's `ascii` tokenizer makes of `text` (the text index's tokenizer): runs of ASCII
 * letters and digits and of any character beyond ASCII, ASCII letters folded to lower case.
 */
export function asciiTokens(text: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const inToken = c >= 128 || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
    if (inToken) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      tokens.push(foldAscii(text.slice(start, i)));
      start = -1;
    }
  }
  return tokens;
}

function foldAscii(token: string): string {
  for (let i = 0; i < token.length; i += 1) {
    const c = token.charCodeAt(i);
    if (c >= 65 && c <= 90) return token.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  }
  return token;
}

/** Most articles whose words a delta hands over (beyond, the reader reads the text index as before). */
export const MAX_HANDED_ARTICLES = 100_000;

/**
 * The words a delta of this process wrote to one shop's rows of the text index, handed to the
 * reader so that the first searches after it need not read the text index over the whole shop
 * (issue 30): the segment in `slot` went from generation `from` to `to` and holds `size`
 * articles; the articles at `touched` seqs got the words given (new, changed or moved ones), every
 * other one below `size` kept its words, and those from `size` on are gone. A match list of the
 * words under `from` then becomes the list under `to` with only the touched articles matched here.
 */
/**
 * What a delta wrote to one shop's rows of the text index (`HandedWords`): the segment in `slot`
 * went from generation `from` to `to` and holds `size` articles; `touched` maps the seq of each
 * article whose row it wrote to the words now indexed for it (FTS5 input text).
 */
export interface WordsWritten {
  readonly slot: number;
  readonly from: string;
  readonly to: string;
  readonly size: number;
  readonly touched: ReadonlyMap<number, string>;
}

export class HandedWords {
  readonly slot: number;
  readonly from: string;
  readonly to: string;
  readonly size: number;
  /** 1 at each touched article's position in the segment. */
  readonly #touched: Uint8Array;
  /** Each token of the touched articles with their seqs, ascending. */
  readonly #seqsOf = new Map<string, number[]>();

  constructor(change: WordsWritten) {
    this.slot = change.slot;
    this.from = change.from;
    this.to = change.to;
    this.size = change.size;
    this.#touched = new Uint8Array(change.size);
    const base = change.slot * SLOT_SPAN;
    for (const seq of [...change.touched.keys()].sort((a, b) => a - b)) {
      const position = seq - base;
      if (position < 0 || position >= change.size) continue;
      this.#touched[position] = 1;
      for (const token of asciiTokens(change.touched.get(seq) ?? '')) {
        const seqs = this.#seqsOf.get(token);
        if (!seqs) this.#seqsOf.set(token, [seq]);
        else if (seqs[seqs.length - 1] !== seq) seqs.push(seq);
      }
    }
  }

  /**
   * The seqs of this segment matching `query` under generation `to`, ascending, from `earlier`
   * (the seqs matching it under `from`, ascending; other segments' seqs may be there too):
   * undefined for a query the text index must answer (a term that is not one token).
   */
  part(query: TextQuery, earlier: Float64Array): Float64Array | undefined {
    const matched = this.#matching(query);
    if (!matched) return undefined;
    const base = this.slot * SLOT_SPAN;
    const end = base + this.size;
    const out = new Float64Array(earlier.length + matched.length);
    let n = 0;
    let m = 0;
    for (let i = lowerBound(earlier, base); i < earlier.length; i += 1) {
      const seq = earlier[i] as number;
      if (seq >= end) break;
      if (this.#touched[seq - base] === 1) continue;
      while (m < matched.length && (matched[m] as number) < seq) out[n++] = matched[m++] as number;
      out[n++] = seq;
    }
    while (m < matched.length) out[n++] = matched[m++] as number;
    return out.subarray(0, n);
  }

  /** The touched articles' seqs matching `query`, ascending; undefined when a term is not one token. */
  #matching(query: TextQuery): readonly number[] | undefined {
    const lists: (readonly number[])[][] = [];
    for (const term of query.terms) {
      const tokens = asciiTokens(term);
      if (tokens.length !== 1) return undefined;
      const token = tokens[0] as string;
      if (!query.prefix) lists.push([this.#seqsOf.get(token) ?? []]);
      else {
        const starting: (readonly number[])[] = [];
        for (const [word, seqs] of this.#seqsOf) if (word.startsWith(token)) starting.push(seqs);
        lists.push(starting);
      }
    }
    if (query.every) return lists.map(union).reduce(intersection);
    return union(lists.flat());
  }
}

/** The seqs in any of `lists` (each ascending), ascending, once each. */
function union(lists: readonly (readonly number[])[]): readonly number[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0] as readonly number[];
  const all = new Set<number>();
  for (const list of lists) for (const seq of list) all.add(seq);
  return [...all].sort((a, b) => a - b);
}

/** The seqs in both ascending lists, ascending. */
function intersection(a: readonly number[], b: readonly number[]): readonly number[] {
  const out: number[] = [];
  let j = 0;
  for (const seq of a) {
    while (j < b.length && (b[j] as number) < seq) j += 1;
    if (b[j] === seq) out.push(seq);
  }
  return out;
}
