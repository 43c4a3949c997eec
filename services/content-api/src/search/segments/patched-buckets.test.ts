import { describe, expect, it } from 'vitest';
import { postingsChanges } from '../../test-support/postings-changes.js';
import { seededRandom } from '../../test-support/seeded-random.js';
import { patchBucketWithWords } from './patched-buckets.js';
import {
  bucketOf,
  bucketVocabulary,
  decodeBucket,
  PostingsBuilder,
  vocabularyWords,
  type PostingsChange,
} from './word-postings.js';

describe('patchBucketWithWords', () => {
  it('gives the patched positions, their bucketVocabulary and each changed word count', () => {
    // Words with ASCII digits, with a digit of another script (٣), letters over ASCII, one letter.
    const vocabulary = ['pen', 'blue', 'grün', '4000000079194', 'a', 'b', 'c', 'ü', 'x1', 'x2', 'n٣', 'straße'];
    let patchedEntries = 0;
    let emptied = 0;
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = seededRandom(seed);
      const text = () => Array.from({ length: next(5) }, () => vocabulary[next(vocabulary.length)]!).join(' ');
      const before = Array.from({ length: next(40) }, text);
      const after = [...before];
      for (let step = next(10); step > 0; step -= 1) after[next(after.length + 1)] = text();
      const builder = new PostingsBuilder();
      before.forEach((t, i) => builder.add(i * 300, t));
      const buckets = builder.encode();
      const changes = postingsChanges(before, after, 300);
      buckets.forEach((bucket, b) => {
        const mine = new Map<string, PostingsChange>([...changes].filter(([w]) => bucketOf(w, buckets.length) === b));
        const got = patchBucketWithWords(bucket, mine);
        // Every word's positions: those of the texts after the delta that hold it, in this bucket.
        const expected = new Map<string, number[]>();
        after.forEach((t, i) => {
          for (const word of new Set(t.split(' ').filter(Boolean)))
            if (bucketOf(word, buckets.length) === b) expected.set(word, [...(expected.get(word) ?? []), i * 300]);
        });
        expect(new Map([...decodeBucket(got.data)].sort()), `seed ${seed} bucket ${b}`).toEqual(
          new Map([...expected].sort()),
        );
        expect(got.words.equals(bucketVocabulary(got.data)), `seed ${seed} bucket ${b} words`).toBe(true);
        const now = new Map(vocabularyWords(bucketVocabulary(got.data)));
        expect([...got.counts]).toEqual([...mine.keys()].map((w) => [w, now.get(w) ?? 0]));
        patchedEntries += mine.size;
        emptied += [...got.counts.values()].filter((n) => n === 0).length;
      });
    }
    // The random deltas did change words, and left some without positions.
    expect(patchedEntries).toBeGreaterThan(500);
    expect(emptied).toBeGreaterThan(20);
  });

  it('reads an empty bucket and one whose words all go', () => {
    const builder = new PostingsBuilder();
    builder.add(3, 'pen 7');
    const [bucket] = builder.encode();
    const gone = new Map<string, PostingsChange>([
      ['pen', { removed: [3], added: [] }],
      ['7', { removed: [3], added: [] }],
    ]);
    const patched = patchBucketWithWords(bucket!, gone);
    expect(patched.data.length).toBe(0);
    expect(patched.words.equals(bucketVocabulary(patched.data))).toBe(true);
    expect([...patched.counts]).toEqual([
      ['pen', 0],
      ['7', 0],
    ]);
    const grown = patchBucketWithWords(Buffer.alloc(0), new Map([['ink', { removed: [], added: [1, 5] }]]));
    expect([...decodeBucket(grown.data)]).toEqual([['ink', [1, 5]]]);
    expect(vocabularyWords(grown.words)).toEqual([['ink', 2]]);
  });
});
