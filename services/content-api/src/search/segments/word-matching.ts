import { hasDigit, type TermDictionary } from './term-dictionary.js';

/**
 * How a query word matched an article, best first; an article's class is the worst of its words'
 * (decision 0040). `compound` ranks between prefix and typo matches.
 */
export const MATCH_CLASS = { exact: 0, prefix: 1, compound: 2, typo: 3 } as const;
export type MatchClass = (typeof MATCH_CLASS)[keyof typeof MATCH_CLASS];
export const WORST_CLASS: MatchClass = MATCH_CLASS.typo;

/** Shortest last word that also matches as a prefix, in letters. */
export const MIN_PREFIX_LETTERS = 2;
/** Shortest words that match with one typo and with two. */
export const ONE_TYPO_LETTERS = 5;
export const TWO_TYPOS_LETTERS = 9;
/** Most indexed words one prefix stands for (those in the most articles). */
export const MAX_PREFIX_WORDS = 100;
/** Shortest words that also match inside compounds (`TermDictionary.compounds`), in letters. */
export const MIN_COMPOUND_LETTERS = 4;
/** Most compounds one word stands for (those in the most articles). */
export const MAX_COMPOUND_WORDS = 100;
/** Most indexed words one word matches with typos (the nearest, then those in the most articles). */
export const MAX_TYPO_WORDS = 20;

/** Indexed words that stand for a query word, by class. */
export interface WordAlternative {
  readonly class: MatchClass;
  readonly terms: readonly string[];
}

/**
 * The indexed words `word` matches under default matching, each class non-empty and in class
 * order: exact (equal once folded, `TermDictionary.exact`); when `last`, words it begins from
 * `MIN_PREFIX_LETTERS` letters; unless it holds a digit, compounds of it and another indexed word
 * from `MIN_COMPOUND_LETTERS` letters, and words within 1 edit from
 * `ONE_TYPO_LETTERS` letters, 2 from `TWO_TYPOS_LETTERS`. A word is listed in its best class only.
 */
export function wordAlternatives(dictionary: TermDictionary, word: string, last: boolean): WordAlternative[] {
  const letters = [...word].length;
  const seen = new Set<string>();
  const alternatives: WordAlternative[] = [];
  const add = (cls: MatchClass, terms: readonly string[]) => {
    const fresh = terms.filter((t) => !seen.has(t));
    for (const t of fresh) seen.add(t);
    if (fresh.length > 0) alternatives.push({ class: cls, terms: fresh });
  };
  add(MATCH_CLASS.exact, dictionary.exact(word));
  if (last && letters >= MIN_PREFIX_LETTERS) add(MATCH_CLASS.prefix, dictionary.prefixed(word, MAX_PREFIX_WORDS));
  if (letters >= MIN_COMPOUND_LETTERS && !hasDigit(word))
    add(MATCH_CLASS.compound, dictionary.compounds(word, MAX_COMPOUND_WORDS));
  const edits = letters >= TWO_TYPOS_LETTERS ? 2 : letters >= ONE_TYPO_LETTERS ? 1 : 0;
  if (edits > 0 && !hasDigit(word)) add(MATCH_CLASS.typo, dictionary.typos(word, edits, MAX_TYPO_WORDS));
  return alternatives;
}

/** Articles (ascending seqs) holding a query word, with the class it matched them by. */
export interface ClassifiedSeqs {
  readonly seqs: Float64Array;
  readonly classes: Uint8Array;
  /** Every class is exact (then the classes change nothing and need not be kept). */
  readonly exact: boolean;
}

/**
 * The articles holding a query word: the union of its alternatives' articles (`seqs` of each,
 * ascending, in `alternatives` order), each with the best class it has there.
 */
export function unionOfAlternatives(lists: readonly { class: MatchClass; seqs: Float64Array }[]): ClassifiedSeqs {
  let parts: ClassifiedSeqs[] = lists.map((l) => ({
    seqs: l.seqs,
    classes: new Uint8Array(l.seqs.length).fill(l.class),
    exact: l.class === MATCH_CLASS.exact || l.seqs.length === 0,
  }));
  if (parts.length === 0) return { seqs: new Float64Array(0), classes: new Uint8Array(0), exact: true };
  // Merged in pairs, so each article is copied log2(lists) times.
  while (parts.length > 1) {
    const next: ClassifiedSeqs[] = [];
    for (let p = 0; p < parts.length; p += 2) {
      const a = parts[p] as ClassifiedSeqs;
      const b = parts[p + 1];
      next.push(b ? mergeUnion(a, b) : a);
    }
    parts = next;
  }
  return parts[0] as ClassifiedSeqs;
}

/** No class yet, in `unionOfPositions`' table (above every `MATCH_CLASS`). */
const NO_CLASS = 255;

/** `unionOfPositions`' table of the best class by position, kept between calls (one thread each). */
let bestClass = new Uint8Array(0);

/**
 * `unionOfAlternatives` of positions in one segment (`positions` of each alternative, ascending,
 * all below `size`; the seqs are `base` plus a position). When the lists are many or long, each
 * position's best class is marked in a table of the segment's positions and read back in order:
 * no list is copied per merge round, as the merges in pairs do.
 */
export function unionOfPositions(
  lists: readonly { class: MatchClass; positions: Uint32Array }[],
  base: number,
  size: number,
): ClassifiedSeqs {
  let total = 0;
  let from = size;
  let to = 0;
  for (const { positions } of lists) {
    if (positions.length === 0) continue;
    total += positions.length;
    from = Math.min(from, positions[0] as number);
    to = Math.max(to, (positions[positions.length - 1] as number) + 1);
  }
  // The merges in pairs copy every position once per round; the table costs a pass over its range.
  if (lists.length < 2 || to > size || total * Math.ceil(Math.log2(lists.length)) * 8 < to - from)
    return unionOfAlternatives(lists.map((l) => ({ class: l.class, seqs: seqsOf(l.positions, base) })));
  if (bestClass.length < size) bestClass = new Uint8Array(size);
  const best = bestClass;
  best.fill(NO_CLASS, from, to);
  let count = 0;
  for (const { class: c, positions } of lists)
    for (let i = 0; i < positions.length; i += 1) {
      const p = positions[i] as number;
      const had = best[p] as number;
      if (had === NO_CLASS) {
        best[p] = c;
        count += 1;
      } else if (c < had) best[p] = c;
    }
  const seqs = new Float64Array(count);
  const classes = new Uint8Array(count);
  let n = 0;
  let worst = 0;
  for (let p = from; p < to; p += 1) {
    const c = best[p] as number;
    if (c === NO_CLASS) continue;
    seqs[n] = base + p;
    classes[n++] = c;
    worst |= c;
  }
  return { seqs, classes, exact: worst === 0 };
}

/** `base` plus each of `positions`. */
export function seqsOf(positions: Uint32Array, base: number): Float64Array {
  const seqs = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i += 1) seqs[i] = base + (positions[i] as number);
  return seqs;
}

function mergeUnion(a: ClassifiedSeqs, b: ClassifiedSeqs): ClassifiedSeqs {
  const seqs = new Float64Array(a.seqs.length + b.seqs.length);
  const classes = new Uint8Array(seqs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  // Any class written above exact (0): an article only one side has exactly may still be exact.
  let worst = 0;
  while (i < a.seqs.length && j < b.seqs.length) {
    const x = a.seqs[i] as number;
    const y = b.seqs[j] as number;
    let c: number;
    if (x < y) {
      seqs[n] = x;
      c = a.classes[i++] as number;
    } else if (y < x) {
      seqs[n] = y;
      c = b.classes[j++] as number;
    } else {
      seqs[n] = x;
      c = Math.min(a.classes[i++] as number, b.classes[j++] as number);
    }
    classes[n++] = c;
    worst |= c;
  }
  for (; i < a.seqs.length; i += 1) {
    const c = a.classes[i] as number;
    seqs[n] = a.seqs[i] as number;
    classes[n++] = c;
    worst |= c;
  }
  for (; j < b.seqs.length; j += 1) {
    const c = b.classes[j] as number;
    seqs[n] = b.seqs[j] as number;
    classes[n++] = c;
    worst |= c;
  }
  return { seqs: seqs.subarray(0, n), classes: classes.subarray(0, n), exact: worst === 0 };
}

/**
 * The articles holding every query word (`words`: each word's articles), each with the worst
 * class among its words. The shortest list drives; a list up to `LINEAR_RATIO` times as long is
 * walked beside it, a longer one searched by galloping.
 */
export function intersectClassified(words: readonly ClassifiedSeqs[]): ClassifiedSeqs {
  const [shortest, ...others] = [...words].sort((a, b) => a.seqs.length - b.seqs.length);
  if (shortest === undefined) return { seqs: new Float64Array(0), classes: new Uint8Array(0), exact: true };
  let current: ClassifiedSeqs = shortest;
  for (const other of others) {
    if (current.seqs.length === 0) break;
    current =
      other.seqs.length <= LINEAR_RATIO * current.seqs.length
        ? intersectLinear(current, other)
        : intersectGalloping(current, other);
  }
  return current;
}

/** Lists at most this many times as long as the one driving are merged by walking both. */
const LINEAR_RATIO = 8;

/** The articles of both `a` and `b` with the worse class of the two, by walking both lists. */
function intersectLinear(a: ClassifiedSeqs, b: ClassifiedSeqs): ClassifiedSeqs {
  const x = a.seqs;
  const y = b.seqs;
  const seqs = new Float64Array(Math.min(x.length, y.length));
  const classes = new Uint8Array(seqs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  let worst = 0;
  while (i < x.length && j < y.length) {
    const u = x[i] as number;
    const v = y[j] as number;
    if (u < v) i += 1;
    else if (v < u) j += 1;
    else {
      const p = a.classes[i++] as number;
      const q = b.classes[j++] as number;
      const c = p > q ? p : q;
      seqs[n] = u;
      classes[n++] = c;
      worst |= c;
    }
  }
  return { seqs: seqs.subarray(0, n), classes: classes.subarray(0, n), exact: worst === 0 };
}

/** The articles of `a` also in the longer `b`, with the worse class of the two, by galloping through `b`. */
function intersectGalloping(a: ClassifiedSeqs, b: ClassifiedSeqs): ClassifiedSeqs {
  const list = b.seqs;
  const seqs = new Float64Array(a.seqs.length);
  const classes = new Uint8Array(seqs.length);
  let n = 0;
  let j = 0;
  let worst = 0;
  for (let i = 0; i < a.seqs.length; i += 1) {
    const value = a.seqs[i] as number;
    let step = 1;
    let high = j;
    while (high < list.length && (list[high] as number) < value) {
      j = high + 1;
      high += step;
      step *= 2;
    }
    if (high > list.length) high = list.length;
    while (j < high) {
      const middle = (j + high) >>> 1;
      if ((list[middle] as number) < value) j = middle + 1;
      else high = middle;
    }
    if (j === list.length) break;
    if (list[j] === value) {
      const p = a.classes[i] as number;
      const q = b.classes[j] as number;
      const c = p > q ? p : q;
      seqs[n] = value;
      classes[n++] = c;
      worst |= c;
    }
  }
  return { seqs: seqs.subarray(0, n), classes: classes.subarray(0, n), exact: worst === 0 };
}

/** Each distinct word of `words` once, with whether it is the last word of `q` (which also matches as a prefix). */
export function distinctQueryWords(words: readonly string[]): { word: string; last: boolean }[] {
  const last = words[words.length - 1];
  return [...new Set(words)].map((word) => ({ word, last: word === last }));
}

/** Whether every article matched exactly (then classes change nothing and need not be kept). */
export function allExact(classes: Uint8Array): boolean {
  for (let i = 0; i < classes.length; i += 1) if (classes[i] !== MATCH_CLASS.exact) return false;
  return true;
}
