import { describe, expect, it } from 'vitest';
import { MATCH_CACHE_SEQS, MATCH_CACHE_SEQS_PER_ARTICLE, MatchCache, matchCacheSeqs } from './match-cache.js';

const list = (...seqs: number[]) => Float64Array.from(seqs);

describe('MatchCache', () => {
  it('reads a key once per owner and again for the next owner', () => {
    const cache = new MatchCache(10);
    const first = {};
    let reads = 0;
    const read = () => ((reads += 1), list(1, 2, 3));
    expect([...cache.get(first, 'pen', read)]).toEqual([1, 2, 3]);
    expect([...cache.get(first, 'pen', read)]).toEqual([1, 2, 3]);
    expect(reads).toBe(1);
    cache.get({}, 'pen', read);
    expect(reads).toBe(2);
    expect(cache.held).toBe(3);
  });

  it('keeps the lists while a version string is equal, and drops them for another one', () => {
    const cache = new MatchCache(10);
    let reads = 0;
    const read = () => ((reads += 1), list(4, 5));
    cache.get(['words', 1].join('-'), 'pen', read);
    cache.get(['words', 1].join('-'), 'pen', read);
    expect(reads).toBe(1);
    cache.get('words-2', 'pen', read);
    expect(reads).toBe(2);
    expect(cache.held).toBe(2);
  });

  it('drops the least recently used lists past its size and keeps no list larger than it', () => {
    const cache = new MatchCache(5);
    const owner = {};
    const reads: string[] = [];
    const get = (key: string, ...seqs: number[]) => cache.get(owner, key, () => (reads.push(key), list(...seqs)));
    get('a', 1, 2);
    get('b', 3, 4);
    get('a', 1, 2); // a is now the most recent
    get('c', 5, 6); // 6 held: b goes
    expect(cache.held).toBe(4);
    get('a');
    get('b', 3, 4);
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
    expect([...get('big', 1, 2, 3, 4, 5, 6)]).toEqual([1, 2, 3, 4, 5, 6]);
    get('big', 1, 2, 3, 4, 5, 6);
    expect(reads.filter((r) => r === 'big')).toHaveLength(2);
  });
});

describe('MatchCache.kept', () => {
  it('keeps derived entries beside lists, counted by their seqs, under the same version and size', () => {
    const cache = new MatchCache(5);
    let reads = 0;
    const word = () => ((reads += 1), { seqs: list(1, 2, 3), classes: Uint8Array.of(0, 1, 0) });
    const first = cache.kept('v1', 'W pen', word);
    expect(cache.kept('v1', 'W pen', word)).toBe(first);
    expect(reads).toBe(1);
    expect(cache.held).toBe(3);
    cache.get('v1', 'pen', () => list(7, 8, 9)); // 6 held: the word goes
    expect(cache.held).toBe(3);
    cache.kept('v1', 'W pen', word);
    expect(reads).toBe(2);
    cache.kept('v2', 'W pen', word);
    expect(reads).toBe(3);
  });
});

describe('MatchCache, shared arrays and its bound', () => {
  it('counts an array of seqs held by several entries once, until the last of them goes', () => {
    const cache = new MatchCache(5);
    const seqs = list(1, 2, 3);
    cache.get('v1', 'OR "pen"', () => seqs);
    cache.kept('v1', 'W pen', () => ({ seqs, classes: new Uint8Array(3) }));
    expect(cache.held).toBe(3);
    cache.get('v1', 'OR "ink"', () => list(4, 5)); // 5 held: nothing goes
    expect(cache.held).toBe(5);
    let reads = 0;
    cache.get('v1', 'OR "pen"', () => ((reads += 1), seqs));
    expect(reads).toBe(0);
    // 6 held: "W pen" goes, but "OR pen" still holds its array; then "OR ink" goes.
    cache.get('v1', 'OR "cap"', () => list(6));
    expect(cache.held).toBe(4);
    cache.kept('v1', 'W pen', () => ((reads += 1), { seqs, classes: new Uint8Array(3) }));
    expect(reads).toBe(1);
    expect(cache.held).toBe(4);
  });

  it('drops the least recently used lists once past a lowered bound', () => {
    const cache = new MatchCache(10);
    cache.get('v1', 'a', () => list(1, 2, 3));
    cache.get('v1', 'b', () => list(4, 5, 6));
    cache.maxSeqs = 4;
    expect(cache.maxSeqs).toBe(4);
    cache.get('v1', 'c', () => list(7));
    expect(cache.held).toBe(4);
    let reads = 0;
    cache.get('v1', 'a', () => ((reads += 1), list(1, 2, 3)));
    expect(reads).toBe(1);
  });

  it('is bounded by MATCH_CACHE_SEQS_PER_ARTICLE per article over large catalogs only', () => {
    expect(matchCacheSeqs(1000)).toBe(MATCH_CACHE_SEQS);
    expect(matchCacheSeqs(10_000_000)).toBe(10_000_000 * MATCH_CACHE_SEQS_PER_ARTICLE);
  });
});

describe("MatchCache, the earlier version's lists", () => {
  it('offers a key its list of the version before once, and drops what was derived', () => {
    const cache = new MatchCache(10);
    const offered: ({ version: object | string; seqs: number[] } | undefined)[] = [];
    const read =
      (...seqs: number[]) =>
      (earlier?: { readonly version: object | string; readonly seqs: Float64Array }) => {
        offered.push(earlier && { version: earlier.version, seqs: [...earlier.seqs] });
        return list(...seqs);
      };
    cache.get('v1', 'pen', read(1, 2));
    cache.kept('v1', 'W pen', () => ({ seqs: list(9), classes: new Uint8Array(1) }));
    expect(cache.held).toBe(3);
    cache.get('v2', 'ink', read(3));
    // "W pen" went with v1; "pen" waits as an earlier list.
    expect(cache.held).toBe(3);
    expect(cache.earlierLists).toBe(1);
    cache.get('v2', 'pen', read(1, 2, 5));
    expect(offered.at(-1)).toEqual({ version: 'v1', seqs: [1, 2] });
    expect(cache.earlierLists).toBe(0);
    expect(cache.held).toBe(4);
    // Offered once only: read again under v3, "pen" is offered v2's list, not v1's.
    cache.get('v3', 'pen', read(6));
    expect(offered.at(-1)).toEqual({ version: 'v2', seqs: [1, 2, 5] });
    cache.get('v3', 'ink', read(7));
    expect(offered.at(-1)).toEqual({ version: 'v2', seqs: [3] });
  });

  it('keeps the earlier lists across a version that held none, and gives the version they are of', () => {
    const cache = new MatchCache(10);
    let version: object | string | undefined;
    cache.get('v1', 'pen', () => list(1));
    // v2 reads a list larger than the bound: it keeps none, so v1's lists stay the earlier ones.
    cache.get('v2', 'huge', () => list(...Array.from({ length: 11 }, (_, i) => i)));
    cache.get('v3', 'pen', (earlier) => ((version = earlier?.version), list(1)));
    expect(version).toBe('v1');
    cache.get('v4', 'pen', (earlier) => ((version = earlier?.version), list(1)));
    expect(version).toBe('v3');
  });

  it('drops earlier lists first once past its bound', () => {
    const cache = new MatchCache(5);
    cache.get('v1', 'a', () => list(1, 2));
    cache.get('v1', 'b', () => list(3, 4));
    cache.get('v2', 'c', () => list(5, 6)); // 6 held: "a" of v1 goes first
    expect(cache.held).toBe(4);
    expect(cache.earlierLists).toBe(1);
    cache.get('v2', 'd', () => list(7, 8)); // "b" of v1 goes, not "c"
    expect(cache.earlierLists).toBe(0);
    let reads = 0;
    cache.get('v2', 'c', () => ((reads += 1), list(5, 6)));
    expect(reads).toBe(0);
    expect(cache.held).toBe(4);
  });
});
