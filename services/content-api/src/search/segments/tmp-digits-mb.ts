import pg from 'pg';
import { vocabularyWords } from './word-postings.js';
import { TermDictionary } from './term-dictionary.js';
const c = new pg.Client('postgres://postgres@127.0.0.1:55432/triad_throughput_1000000');
await c.connect();
const r = await c.query('select slot, words from content_postings where slot = (select min(slot) from content_segments where article_count > 0)');
console.log('buckets', r.rows.length);
const stored: Buffer[] = r.rows.map((x: { words: Buffer }) => x.words);
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  const entries: [string, number][] = [];
  for (const v of stored) for (const e of vocabularyWords(v, 'digits')) entries.push(e as [string, number]);
  const tRead = performance.now() - t;
  t = performance.now();
  const d = new TermDictionary(entries);
  console.log('digits', entries.length, 'read', tRead.toFixed(0), 'build', (performance.now() - t).toFixed(0), d.size);
  t = performance.now();
  const keys = entries.map(([w]) => w);
  keys.sort();
  console.log('default sort of words', (performance.now() - t).toFixed(0));
  t = performance.now();
  let letters = 0;
  for (const v of stored) for (const _ of vocabularyWords(v, 'letters')) letters++;
  console.log('letters', letters, (performance.now() - t).toFixed(0));
}
await c.end();
