import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SLOT_SPAN } from '../segments/segment-columns.js';
import { asciiTokens, HandedWords, textQueryExpression, type TextQuery } from './handed-words.js';

const SLOT = 3;
const BASE = SLOT * SLOT_SPAN;

/** Texts as a catalog may index them: cases, marks, ligatures, digits, separators of every kind. */
const TEXTS = [
  'Labels A4 weiß 100 Stück',
  'a4x-200 Straße, 3/4" ROHR',
  'c/o ½ ﬁne A4',
  'ÄPFEL äpfel Äpfelmus',
  'foo_bar baz-qux 0815',
  'A4',
  'a40 A5 labels',
  'x y z',
  '',
  'Ölfilter ölfilter OELFILTER',
  'ÀÉÎ àéî über-größe',
];

const QUERIES: TextQuery[] = [
  ...['a4', 'A4', 'labels', 'weiß', 'straße', 'äpfel', 'Äpfel', 'ölfilter', 'oelfilter', 'über', 'x', '0815', 'fo'].map(
    (term) => ({ terms: [term], prefix: false, every: false }),
  ),
  ...['a4', 'a', 'stra', 'äp', 'Äp', 'öl', 'oe', '08', 'fo', 'ﬁ', 'gr'].map((term) => ({
    terms: [term],
    prefix: true,
    every: false,
  })),
  { terms: ['a4', 'labels'], prefix: false, every: false },
  { terms: ['a4', 'a5'], prefix: true, every: false },
  { terms: ['labels', 'a4'], prefix: false, every: true },
  { terms: ['ölfilter', 'oelfilter'], prefix: false, every: true },
  { terms: ['labels', 'weiß', 'stück'], prefix: false, every: true },
];

describe('words handed over by a delta, matched as the text index matches them', () => {
  // The store's text index as the content migrations define it.
  const db = new Database(':memory:');
  db.exec(
    'create virtual table article_words using fts5(words, ' +
      "content='', contentless_delete=1, detail=none, tokenize='ascii')",
  );
  const insert = db.prepare('insert into article_words (rowid, words) values (?, ?)');
  TEXTS.forEach((text, i) => insert.run(BASE + i, text));
  const match = db.prepare('select rowid from article_words where article_words match ? order by rowid').pluck();
  afterAll(() => db.close());

  it('matches every query as FTS5 does, all articles touched', () => {
    const handed = new HandedWords({
      slot: SLOT,
      from: 'g1',
      to: 'g2',
      size: TEXTS.length,
      touched: new Map(TEXTS.map((text, i) => [BASE + i, text])),
    });
    for (const query of QUERIES) {
      const expected = match.all(textQueryExpression(query)) as number[];
      expect([...(handed.part(query, new Float64Array()) ?? [])], textQueryExpression(query)).toEqual(expected);
    }
    // Some queries must find something, or the comparison shows nothing.
    expect(QUERIES.filter((q) => (match.all(textQueryExpression(q)) as number[]).length > 0).length).toBeGreaterThan(
      20,
    );
  });

  it('tokenizes as FTS5 does: a text with separators inside a term is several tokens, and left to the index', () => {
    expect(asciiTokens('c/o ½ ﬁne A4 Straße')).toEqual(['c', 'o', '½', 'ﬁne', 'a4', 'straße']);
    const handed = new HandedWords({ slot: SLOT, from: 'g1', to: 'g2', size: 1, touched: new Map([[BASE, 'c/o']]) });
    expect(handed.part({ terms: ['c/o'], prefix: false, every: false }, new Float64Array())).toBeUndefined();
    expect(handed.part({ terms: [''], prefix: true, every: false }, new Float64Array())).toBeUndefined();
  });

  it("keeps the earlier list's untouched articles, matches the touched ones, drops those past the end", () => {
    // Before: articles 0..5 of the slot; 1 and 4 matched `a4`, so did one of another slot.
    // The delta rewrote 1 (no longer a4), 2 (now a4), moved 5 into 3 (now a4) and left 5 places.
    const handed = new HandedWords({
      slot: SLOT,
      from: 'g1',
      to: 'g2',
      size: 5,
      touched: new Map([
        [BASE + 1, 'labels a5'],
        [BASE + 2, 'labels a4'],
        [BASE + 3, 'A4 moved'],
      ]),
    });
    const earlier = Float64Array.from([BASE - SLOT_SPAN + 7, BASE + 1, BASE + 4, BASE + 5, BASE + SLOT_SPAN + 2]);
    const part = handed.part({ terms: ['a4'], prefix: false, every: false }, earlier);
    expect([...(part ?? [])]).toEqual([BASE + 2, BASE + 3, BASE + 4]);
    const prefix = handed.part({ terms: ['a'], prefix: true, every: false }, earlier);
    expect([...(prefix ?? [])]).toEqual([BASE + 1, BASE + 2, BASE + 3, BASE + 4]);
  });
});
