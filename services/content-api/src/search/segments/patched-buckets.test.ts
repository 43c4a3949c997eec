import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test-support/seeded-random.js';
import { patchBucketWithWords } from './patched-buckets.js';
import {
  bucketOf,
  bucketVocabulary,
  patchBucket,
  PostingsBuilder,
  vocabularyWords,
  type PostingsChange,
} from './word-postings.js';

describe('patchBucketWithWords', () => {
  it('gives the bytes of patchBucket, their bucketVocabulary and each changed word count', () => {
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
      const changes = new Map<string, { removed: number[]; added: number[] }>();
      const change = (word: string) => {
        if (!changes.has(word)) changes.set(word, { removed: [], added: [] });
        return changes.get(word)!;
      };
      after.forEach((t, i) => {
        if (t === before[i]) return;
        for (const word of new Set((before[i] ?? '').split(' ').filter(Boolean))) change(word).removed.push(i * 300);
        for (const word of new Set(t.split(' ').filter(Boolean))) change(word).added.push(i * 300);
      });
      buckets.forEach((bucket, b) => {
        const mine = new Map<string, PostingsChange>([...changes].filter(([w]) => bucketOf(w, buckets.length) === b));
        const expected = patchBucket(bucket, mine);
        const got = patchBucketWithWords(bucket, mine);
        expect(got.data.equals(expected), `seed ${seed} bucket ${b}`).toBe(true);
        expect(got.words.equals(bucketVocabulary(expected)), `seed ${seed} bucket ${b} words`).toBe(true);
        const now = new Map(vocabularyWords(bucketVocabulary(expected)));
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
    expect(grown.data.equals(patchBucket(Buffer.alloc(0), new Map([['ink', { removed: [], added: [1, 5] }]])))).toBe(
      true,
    );
    expect(vocabularyWords(grown.words)).toEqual([['ink', 2]]);
  });
});
