import { describe, expect, it } from 'vitest';
import { foldWord, TermDictionary } from './term-dictionary.js';
import { intersectClassified, MATCH_CLASS, unionOfAlternatives, wordAlternatives } from './word-matching.js';

const words = ['bohrer', 'bohrmaschine', 'bohren', 'bohrhammer', 'bolzen', 'weiß', 'grun', 'kuehlschrank', 'quelle'];
const dictionary = new TermDictionary(words.map((w, i) => [w, 10 - i] as const));

/** Optimal string alignment distance, the plain way (to check the pruned walk against). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j * 0));
  for (let j = 0; j <= b.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('foldWord', () => {
  it('folds ß to ss and ae/oe/ue to the vowel, except after a vowel or q', () => {
    expect(['weiß', 'gruen', 'kuehlschraenke', 'bauer', 'quelle', 'oel'].map(foldWord)).toEqual([
      'weiss',
      'grun',
      'kuhlschranke',
      'bauer',
      'quelle',
      'ol',
    ]);
  });
});

describe('TermDictionary', () => {
  it('finds words equal once folded, in both directions', () => {
    expect(dictionary.exact('weiss')).toEqual(['weiß']);
    expect(dictionary.exact('gruen')).toEqual(['grun']);
    expect(dictionary.exact('kuhlschrank')).toEqual(['kuehlschrank']);
    expect(dictionary.exact('bohr')).toEqual([]);
  });

  it('finds longer words by prefix, the most frequent when there are too many', () => {
    expect(dictionary.prefixed('bohr', 10)).toEqual(['bohren', 'bohrer', 'bohrhammer', 'bohrmaschine']);
    expect(dictionary.prefixed('bohr', 2)).toEqual(['bohrer', 'bohrmaschine']);
    expect(dictionary.prefixed('bohrer', 10)).toEqual([]);
    expect(dictionary.prefixed('kueh', 10)).toEqual(['kuehlschrank']);
  });

  it('finds words within the edits, nearest first, never the word itself or words with digits', () => {
    expect(dictionary.typos('bohrrer', 1, 10)).toEqual(['bohrer']);
    expect(dictionary.typos('bhorer', 1, 10)).toEqual(['bohrer']); // transposition
    expect(dictionary.typos('bohrer', 1, 10)).toEqual(['bohren']);
    expect(dictionary.typos('bohrmaschien', 2, 10)).toEqual(['bohrmaschine']);
    expect(new TermDictionary([['m8x40', 1]]).typos('m8x41', 1, 10)).toEqual([]);
    // An edit of the first letter counts as two.
    expect(dictionary.typos('pohrer', 1, 10)).toEqual([]);
    expect(dictionary.typos('pohrmaschine', 2, 10)).toEqual(['bohrmaschine']);
    expect(dictionary.typos('pohrmaschien', 2, 10)).toEqual([]);
  });

  it('agrees with the plain distance on every pair of a generated vocabulary', () => {
    const alphabet = 'abre';
    const vocabulary: string[] = [];
    for (let n = 1; n <= 4; n += 1)
      for (let k = 0; k < alphabet.length ** n; k += 1) {
        let w = '';
        for (let x = k, i = 0; i < n; i += 1, x = Math.floor(x / alphabet.length)) w += alphabet[x % alphabet.length];
        vocabulary.push(w);
      }
    const all = new TermDictionary(vocabulary.map((w) => [w, 1] as const));
    for (const query of ['abre', 'rab', 'eeee', 'ba', 'aberr', 'rbae']) {
      for (const edits of [1, 2]) {
        const expected = vocabulary
          .filter((w) => {
            const [a, b] = [foldWord(w), foldWord(query)];
            const d = distance(a, b);
            if (a[0] === b[0]) return d > 0 && d <= edits;
            // An edit of the first letter counts as two: with two allowed, it is the only one.
            const rest = b.slice(1);
            return (
              edits === 2 && (a === rest || a.slice(1) === rest || a.slice(1) === b || a === b[1]! + b[0] + b.slice(2))
            );
          })
          .sort();
        expect(all.typos(query, edits, 10_000).sort(), `${query} ${edits}`).toEqual(expected);
      }
    }
  });
});

describe('TermDictionary compounds', () => {
  const vocabulary = [
    'bohrer',
    'akku',
    'akkubohrer',
    'stein',
    'steinbohrer',
    'kugel',
    'kugelschreiber',
    'schreiber',
    'kugellager',
    'schraube',
    'schraubenschlussel',
    'schlussel',
    'arbeit',
    'arbeitsschuhe',
    'schuhe',
    'ablage',
    'verstand',
    'stand',
    'steen',
    'steenboor',
    'boor',
    'boek',
    'boekenkast',
    'kast',
    'weiß',
    'weißleim',
    'leim',
    'm8bohrer',
    'xyzbohrer',
    'hering',
    'ring',
  ];
  const compounds = new TermDictionary(vocabulary.map((w, i) => [w, 100 - i] as const));

  it('finds words that end or start with the word when the rest is a word of the vocabulary', () => {
    expect(compounds.compounds('bohrer', 10).sort()).toEqual(['akkubohrer', 'steinbohrer']);
    expect(compounds.compounds('kugel', 10)).toEqual(['kugelschreiber']);
    expect(compounds.compounds('boor', 10)).toEqual(['steenboor']);
    expect(compounds.compounds('weiss', 10)).toEqual(['weißleim']);
  });

  it('takes a linking element off the first part', () => {
    expect(compounds.compounds('schlussel', 10)).toEqual(['schraubenschlussel']);
    expect(compounds.compounds('schraube', 10)).toEqual(['schraubenschlussel']);
    expect(compounds.compounds('schuhe', 10)).toEqual(['arbeitsschuhe']);
    expect(compounds.compounds('kast', 10)).toEqual(['boekenkast']);
    expect(compounds.compounds('boek', 10)).toEqual(['boekenkast']);
  });

  it('refuses rests that are no word, shorter than 3 letters or hold digits', () => {
    // `lager`, `ver`, `he` and `xyz` are no words here; `m8` holds a digit.
    expect(compounds.compounds('stand', 10)).toEqual([]);
    expect(compounds.compounds('ring', 10)).toEqual([]);
    expect(compounds.compounds('lage', 10)).toEqual([]);
    expect(
      new TermDictionary([
        ['m8', 1],
        ['bohrer', 1],
        ['m8bohrer', 1],
      ]).compounds('bohrer', 10),
    ).toEqual([]);
  });

  it('keeps the compounds in the most articles when there are more than the limit', () => {
    expect(compounds.compounds('bohrer', 1)).toEqual(['akkubohrer']);
  });

  it('agrees with a plain scan of every split', () => {
    const keys = new Set(vocabulary.map(foldWord));
    const isPart = (rest: string, follows: boolean) =>
      (rest.length >= 3 && keys.has(rest)) ||
      ['es', 'en', 's', 'n', 'e'].some((link) => {
        const part = follows
          ? rest.startsWith(link) && rest.slice(link.length)
          : rest.endsWith(link) && rest.slice(0, -link.length);
        return part !== false && part.length >= 3 && keys.has(part);
      });
    for (const query of vocabulary.filter((w) => w.length >= 4)) {
      const q = foldWord(query);
      const expected = vocabulary.filter((w) => {
        const key = foldWord(w);
        if (key === q || /\d/.test(key)) return false;
        return (
          (key.startsWith(q) && isPart(key.slice(q.length), true)) ||
          (key.endsWith(q) && isPart(key.slice(0, -q.length), false))
        );
      });
      expect(compounds.compounds(query, 100).sort(), query).toEqual(expected.sort());
    }
  });
});

describe('word matching', () => {
  it('lists a word in its best class: exact, prefix (last word only), typo (not below 5 letters)', () => {
    expect(wordAlternatives(dictionary, 'bohrer', true)).toEqual([
      { class: MATCH_CLASS.exact, terms: ['bohrer'] },
      { class: MATCH_CLASS.typo, terms: ['bohren'] },
    ]);
    expect(wordAlternatives(dictionary, 'bohr', false)).toEqual([]);
    expect(wordAlternatives(dictionary, 'bohr', true)).toEqual([
      { class: MATCH_CLASS.prefix, terms: ['bohren', 'bohrer', 'bohrhammer', 'bohrmaschine'] },
    ]);
    expect(wordAlternatives(dictionary, 'b', true)).toEqual([]);
  });

  it('lists compounds after prefixes and before typos, from 4 letters and never for words with digits', () => {
    const vocabulary = new TermDictionary(
      ['bohrer', 'bohrers', 'akku', 'akkubohrer', 'bohren', 'akkus', 'm8x40', 'm8x40akku'].map((w) => [w, 1] as const),
    );
    expect(wordAlternatives(vocabulary, 'bohrer', true)).toEqual([
      { class: MATCH_CLASS.exact, terms: ['bohrer'] },
      { class: MATCH_CLASS.prefix, terms: ['bohrers'] },
      { class: MATCH_CLASS.compound, terms: ['akkubohrer'] },
      { class: MATCH_CLASS.typo, terms: ['bohren'] },
    ]);
    expect(wordAlternatives(vocabulary, 'akku', false)).toEqual([
      { class: MATCH_CLASS.exact, terms: ['akku'] },
      { class: MATCH_CLASS.compound, terms: ['akkubohrer'] },
    ]);
    // `akkus` starts with `akku` but `s` is no word of 3 letters: only a prefix, when last.
    expect(wordAlternatives(vocabulary, 'akku', true)).toEqual([
      { class: MATCH_CLASS.exact, terms: ['akku'] },
      { class: MATCH_CLASS.prefix, terms: ['akkubohrer', 'akkus'] },
    ]);
    expect(wordAlternatives(vocabulary, 'm8x40', false)).toEqual([{ class: MATCH_CLASS.exact, terms: ['m8x40'] }]);
  });

  it('unites a word’s articles with their best class and intersects words with the worst', () => {
    const f = (...xs: number[]) => Float64Array.from(xs);
    const first = unionOfAlternatives([
      { class: MATCH_CLASS.exact, seqs: f(1, 5) },
      { class: MATCH_CLASS.prefix, seqs: f(2, 5, 9) },
      { class: MATCH_CLASS.typo, seqs: f(3, 9) },
    ]);
    expect([...first.seqs]).toEqual([1, 2, 3, 5, 9]);
    expect([...first.classes]).toEqual([0, 1, 3, 0, 1]);
    const second = unionOfAlternatives([{ class: MATCH_CLASS.typo, seqs: f(2, 5, 7) }]);
    const both = intersectClassified([first, second]);
    expect([...both.seqs]).toEqual([2, 5]);
    expect([...both.classes]).toEqual([3, 3]);
  });
});

describe('TermDictionary.patched', () => {
  it('gives the dictionary built from the changed entries, and leaves the one patched as it was', () => {
    const entries = new Map<string, number>();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 48271) + 11) % 2147483647) / 2147483647;
    const letters = 'abcdeoußü12';
    const word = () =>
      Array.from({ length: 2 + Math.floor(random() * 6) }, () => letters[Math.floor(random() * letters.length)]).join(
        '',
      );
    for (let i = 0; i < 2000; i += 1) entries.set(word(), 1 + Math.floor(random() * 50));
    const before = new TermDictionary(entries);
    const snapshot = structuredClone(before.sorted());
    const changes: [string, number][] = [];
    for (const term of [...entries.keys()].slice(0, 300))
      changes.push([term, random() < 0.5 ? 0 : 1 + Math.floor(random() * 50)]);
    for (let i = 0; i < 300; i += 1) changes.push([word(), Math.floor(random() * 3)]);
    changes.push(['weiß', 4], ['weiss', 2], ['weiß', 5], ['never-there', 0]);
    const after = new Map(entries);
    for (const [term, articles] of changes)
      if (articles > 0) after.set(term, articles);
      else after.delete(term);

    const patched = before.patched(changes);
    const fresh = new TermDictionary(after);
    expect(patched.size).toBe(fresh.size);
    expect(patched.sorted().keys).toEqual(fresh.sorted().keys);
    expect(patched.sorted().terms).toEqual(fresh.sorted().terms);
    expect([...patched.sorted().articles]).toEqual([...fresh.sorted().articles]);
    expect(patched.exact('weiss')).toEqual(fresh.exact('weiss'));
    expect(patched.prefixed('ab', 5)).toEqual(fresh.prefixed('ab', 5));
    expect(patched.typos('abcde', 2, 20)).toEqual(fresh.typos('abcde', 2, 20));
    expect(before.sorted().keys).toEqual(snapshot.keys);
    expect([...before.sorted().articles]).toEqual([...snapshot.articles]);
  });

  it('keeps the arrays of words when only counts change', () => {
    const patched = dictionary.patched([['bohrhammer', 99]]);
    expect(patched.sorted().keys).toBe(dictionary.sorted().keys);
    expect(patched.prefixed('bohr', 1)).toEqual(['bohrhammer']);
    expect(dictionary.prefixed('bohr', 1)).toEqual(['bohrer']);
  });
});
