import { describe, expect, it } from 'vitest';
import { postingsChanges } from '../../test-support/postings-changes.js';
import { seededRandom } from '../../test-support/seeded-random.js';
import { patchBucketWithWords } from './patched-buckets.js';
import {
  bucketCount,
  bucketOf,
  bucketVocabulary,
  bucketWords,
  decodeBucket,
  findPostings,
  intersectPostings,
  PostingsBuilder,
  vocabularyDigitBytes,
  vocabularyWords,
} from './word-postings.js';

describe('word postings', () => {
  it('finds every word at its positions in its bucket, once per article', () => {
    const builder = new PostingsBuilder();
    const texts = ['blue pen blue', 'red pen', 'grün 4000000079194', '', 'pen'];
    // Positions far apart need several varint bytes.
    texts.forEach((text, i) => builder.add(i * 100_000, text));
    builder.add(3_000_000_000, 'pen');
    const buckets = builder.encode();
    expect(buckets).toHaveLength(bucketCount(builder.distinctWords));
    const positions = (word: string) => [...findPostings(buckets[bucketOf(word, buckets.length)]!, word)];
    expect(positions('pen')).toEqual([0, 100_000, 400_000, 3_000_000_000]);
    expect(positions('blue')).toEqual([0]);
    expect(positions('grün')).toEqual([200_000]);
    expect(positions('4000000079194')).toEqual([200_000]);
    expect(positions('green')).toEqual([]);
  });

  it('spreads many words over several buckets and still finds each', () => {
    const builder = new PostingsBuilder();
    for (let i = 0; i < 3000; i += 1) builder.add(i, `w${i} common w${i + 1}`);
    const buckets = builder.encode();
    expect(buckets.length).toBeGreaterThan(1);
    const find = (word: string) => [...findPostings(buckets[bucketOf(word, buckets.length)]!, word)];
    expect(find('w1500')).toEqual([1499, 1500]);
    expect(find('common')).toHaveLength(3000);
  });

  it('patches a bucket as if it were built again from the changed texts', () => {
    const vocabulary = ['pen', 'blue', 'grün', '4000000079194', 'a', 'b', 'c', 'ü', 'x1', 'x2'];
    for (let seed = 1; seed <= 100; seed += 1) {
      const next = seededRandom(seed);
      const text = () => Array.from({ length: next(4) }, () => vocabulary[next(vocabulary.length)]!).join(' ');
      const before = Array.from({ length: 1 + next(30) }, text);
      const after = [...before];
      for (let step = next(8); step > 0; step -= 1) after[next(after.length)] = text();
      if (next(2) === 0) after.push(text());
      const build = (texts: readonly string[]) => {
        const builder = new PostingsBuilder();
        texts.forEach((t, i) => builder.add(i * 1000, t));
        return builder.encode();
      };
      const old = build(before);
      const changes = postingsChanges(before, after, 1000);
      const patched = new Map<string, number[]>();
      old.forEach((bucket, b) => {
        const mine = new Map([...changes].filter(([word]) => bucketOf(word, old.length) === b));
        for (const [word, list] of decodeBucket(patchBucketWithWords(bucket, mine).data)) patched.set(word, list);
      });
      const rebuilt = new Map<string, number[]>();
      // Built again with the same bucket count: words are where `bucketOf` puts them either way.
      for (const bucket of build(after)) for (const [word, list] of decodeBucket(bucket)) rebuilt.set(word, list);
      expect(new Map([...patched].sort()), `seed ${seed}`).toEqual(new Map([...rebuilt].sort()));
    }
  });

  it('lists the words of a bucket with their number of positions', () => {
    const builder = new PostingsBuilder();
    builder.add(0, 'bohrer weiß');
    builder.add(1, 'bohrer');
    const words = builder.encode().flatMap((bucket) => bucketWords(bucket));
    expect(new Map(words)).toEqual(
      new Map([
        ['bohrer', 2],
        ['weiß', 1],
      ]),
    );
  });

  it('stores the words and counts of each bucket without positions, and reads them back', () => {
    const builder = new PostingsBuilder();
    const random = seededRandom(27);
    for (let position = 0; position < 3000; position += 1)
      builder.add(position, `w${random(900)} grün${position % 7} x${position}`);
    builder.add(3000, 'einzig');
    const buckets = builder.encode();
    expect(buckets.length).toBeGreaterThan(1);
    const digit = (entry: [string, number]) => /\d/.test(entry[0]);
    for (const bucket of buckets) {
      const vocabulary = bucketVocabulary(bucket);
      const words = bucketWords(bucket);
      expect(vocabularyWords(vocabulary, 'letters')).toEqual(words.filter((e) => !digit(e)));
      expect(vocabularyWords(vocabulary, 'digits')).toEqual(words.filter(digit));
      expect(vocabularyWords(vocabulary)).toEqual([...words.filter((e) => !digit(e)), ...words.filter(digit)]);
      expect(vocabulary.length).toBeLessThan(bucket.length);
    }
    for (const which of ['letters', 'digits', 'all'] as const) {
      expect(vocabularyWords(bucketVocabulary(new Uint8Array(0)), which)).toEqual([]);
      for (const texts of [['nur wörter'], ['42 x1']]) {
        const only = new PostingsBuilder();
        texts.forEach((t, i) => only.add(i, t));
        const [bucket] = only.encode();
        expect(vocabularyWords(bucketVocabulary(bucket!), which), `${texts[0]} ${which}`).toEqual(
          bucketWords(bucket!).filter((e) => which === 'all' || digit(e) === (which === 'digits')),
        );
      }
    }
    // The words with digits as bytes, as the words read give them: with other words, alone, none.
    const digitBytes = (vocabulary: Uint8Array) => {
      const { bytes, from, to, articles } = vocabularyDigitBytes(vocabulary);
      const text = Buffer.from(bytes.subarray(from, to)).toString('utf8');
      return (text === '' ? [] : text.split('\n')).map((word, i) => [word, articles[i]]);
    };
    for (const bucket of buckets)
      expect(digitBytes(bucketVocabulary(bucket))).toEqual(vocabularyWords(bucketVocabulary(bucket), 'digits'));
    for (const texts of [['nur wörter'], ['42 x1'], ['wörter 42']]) {
      const only = new PostingsBuilder();
      texts.forEach((t, i) => only.add(i, t));
      const vocabulary = bucketVocabulary(only.encode()[0]!);
      expect(digitBytes(vocabulary), texts[0]).toEqual(vocabularyWords(vocabulary, 'digits'));
      expect(vocabularyDigitBytes(vocabulary).articles.length).toBe(vocabularyWords(vocabulary, 'digits').length);
    }
    const all = new Map(buckets.flatMap((b) => vocabularyWords(bucketVocabulary(b))));
    expect(all.get('einzig')).toBe(1);
    expect(all.get('grün3')).toBe(Math.ceil((3000 - 3) / 7));
  });

  it('intersects lists of any lengths', () => {
    const a = Uint32Array.from([1, 3, 5, 7, 9, 1000, 5000]);
    const b = Uint32Array.from(Array.from({ length: 6000 }, (_, i) => i));
    const c = Uint32Array.from([3, 7, 5000, 7000]);
    expect([...intersectPostings([a, b, c])]).toEqual([3, 7, 5000]);
    expect([...intersectPostings([a, Uint32Array.from([2, 4])])]).toEqual([]);
    expect([...intersectPostings([b])]).toHaveLength(6000);
  });
});
