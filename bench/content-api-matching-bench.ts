/**
 * Benchmark of the vocabulary structures for default matching (decision 0040), without a store:
 *
 *   npm run bench -- content-api-matching
 *   BENCH_VOCABULARY=500000 npm run bench -- content-api-matching
 *
 * Builds a vocabulary of BENCH_VOCABULARY distinct words (default 300,000: about what 1 M
 * articles of real catalogs hold) from the demo catalog's words, compounds of two of them (the
 * norm in German catalogs) and part numbers, then times per query word: the build of the sorted
 * dictionary (`TermDictionary`), exact and prefix lookups (binary search), and typo lookups by
 * the chosen trie walk of the sorted keys against a scan of the words of near length with an
 * early-exit distance; compound lookups (`TermDictionary.compounds`: the prefix range and a
 * grouping of the keys by their last letters, built on the first lookup) for words the compounds
 * are made of; suggestions (`suggestWords`: completions and corrections of a word typed) as
 * `GET /api/suggest` computes them; and counts what a symmetric-delete index would hold.
 * Prints numbers only.
 */
import { generateCatalog, searchWords, suggestIndexOf, suggestWords, TermDictionary } from '@triad/content-api-service';
import { percentile, printTable } from './bench-utils.js';

const SIZE = Number(process.env.BENCH_VOCABULARY ?? 300_000);
const MB = 1024 * 1024;

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(): { all: string[]; parts: string[] } {
  const base = new Set<string>();
  for (const article of generateCatalog({ articles: 20_000, seed: 1 }).articles())
    for (const d of article.descriptions) for (const w of searchWords(d.value)) if (!/\d/.test(w)) base.add(w);
  const next = random(1);
  // The demo catalog knows a few hundred words: made-up ones of German syllables fill the rest.
  const syllables = 'ab an au be bo bra cher dre ei en er fe ge gel ha hal ka ker kle lei ma mer '
    .concat('ne or pa rei sa schrau sche stein stif te ter trom un ver wa zan ze zu')
    .split(' ');
  while (base.size < SIZE / 10) {
    let w = '';
    for (let n = 2 + Math.floor(next() * 3); n > 0; n -= 1) w += syllables[Math.floor(next() * syllables.length)];
    base.add(w);
  }
  const words = [...base].filter((w) => w.length >= 3);
  const all = new Set(base);
  while (all.size < SIZE) {
    const r = next();
    if (r < 0.8) {
      const a = words[Math.floor(next() * words.length)]!;
      const b = words[Math.floor(next() * words.length)]!;
      all.add(a + b);
    } else {
      all.add(`${Math.floor(next() * 1e6)}${'abcx'[Math.floor(next() * 4)]}${Math.floor(next() * 1e3)}`);
    }
  }
  return { all: [...all], parts: words };
}

/** Optimal string alignment distance with an early exit once every cell of a row exceeds `max`. */
function boundedDistance(a: string, b: string, max: number): number {
  const m = b.length;
  let twoAgo = new Int32Array(m + 1);
  let previous = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let row = new Int32Array(m + 1);
  for (let i = 1; i <= a.length; i += 1) {
    row[0] = i;
    let least = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j += 1) {
      const q = b.charCodeAt(j - 1);
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (c === q ? 0 : 1));
      if (i > 1 && j > 1 && c === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === q)
        best = Math.min(best, twoAgo[j - 2]! + 1);
      row[j] = best;
      if (best < least) least = best;
    }
    if (least > max) return max + 1;
    [twoAgo, previous, row] = [previous, row, twoAgo];
  }
  return previous[m]!;
}

function main(): void {
  const { all: words, parts } = vocabulary();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const start = process.hrtime.bigint();
  const dictionary = new TermDictionary(words.map((w) => [w, 1] as const));
  const buildMs = Number(process.hrtime.bigint() - start) / 1e6;
  gc?.();
  const heap = (process.memoryUsage().heapUsed - before) / MB;
  const byLength = new Map<number, string[]>();
  for (const w of words)
    if (!/\d/.test(w)) (byLength.get(w.length) ?? byLength.set(w.length, []).get(w.length)!).push(w);

  const next = random(2);
  const queries = Array.from({ length: 200 }, () => {
    const w = words[Math.floor(next() * words.length)]!.replace(/\d/g, 'e');
    const at = Math.max(1, Math.floor(next() * (w.length - 1)));
    return w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2); // two letters swapped
  });
  const time = (run: (q: string) => unknown) => {
    const samples = queries.map((q) => {
      const t = process.hrtime.bigint();
      run(q);
      return Number(process.hrtime.bigint() - t) / 1e6;
    });
    samples.sort((a, b) => a - b);
    return [percentile(samples, 50), percentile(samples, 99)] as const;
  };
  const edits = (q: string) => (q.length >= 9 ? 2 : q.length >= 5 ? 1 : 0);
  const rows: [string, string, string][] = [];
  const row = (name: string, [p50, p99]: readonly [number, number]) =>
    rows.push([name, p50.toFixed(3), p99.toFixed(3)]);
  row(
    'exact (binary search)',
    time((q) => dictionary.exact(q)),
  );
  row(
    'prefix of 2 letters, 100 most frequent',
    time((q) => dictionary.prefixed(q.slice(0, 2), 100)),
  );
  row(
    'prefix of 4 letters',
    time((q) => dictionary.prefixed(q.slice(0, 4), 100)),
  );
  row(
    'typos: trie walk of the sorted keys (chosen)',
    time((q) => dictionary.typos(q, edits(q), 20)),
  );
  row(
    'typos: scan of near lengths, same first letter, early-exit distance',
    time((q) => {
      const d = edits(q);
      const found: string[] = [];
      for (let n = q.length - d; n <= q.length + d; n += 1)
        for (const w of byLength.get(n) ?? []) if (w[0] === q[0] && boundedDistance(w, q, d) <= d) found.push(w);
      return found;
    }),
  );
  // Compounds: the first lookup groups the keys by their last letters (timed and weighed apart), then the
  // words compounds are made of, and the typed words (mostly no part of any compound).
  gc?.();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const beforeSuffix = used();
  const suffixStart = process.hrtime.bigint();
  dictionary.compounds('stein', 100);
  const suffixMs = Number(process.hrtime.bigint() - suffixStart) / 1e6;
  gc?.();
  const suffixHeap = (used() - beforeSuffix) / MB;
  const partQueries = Array.from({ length: 200 }, () => parts[Math.floor(next() * parts.length)]!);
  const samples = partQueries.map((q) => {
    const t = process.hrtime.bigint();
    dictionary.compounds(q, 100);
    return Number(process.hrtime.bigint() - t) / 1e6;
  });
  samples.sort((a, b) => a - b);
  row('compounds of a word compounds are made of (up to 100)', [percentile(samples, 50), percentile(samples, 99)]);
  row(
    'compounds of a typed word',
    time((q) => dictionary.compounds(q, 100)),
  );
  // Suggestions (GET /api/suggest): the index beside the dictionary, built once, then per request.
  const indexStart = process.hrtime.bigint();
  suggestIndexOf(dictionary);
  const indexMs = Number(process.hrtime.bigint() - indexStart) / 1e6;
  row(
    `suggest: 2 letters typed (index built once in ${indexMs.toFixed(0)} ms)`,
    time((q) => suggestWords([{ dictionary }], q.slice(0, 2), 8)),
  );
  row(
    'suggest: 4 letters typed',
    time((q) => suggestWords([{ dictionary }], q.slice(0, 4), 8)),
  );
  row(
    'suggest: the word with a typo (completions and corrections)',
    time((q) => suggestWords([{ dictionary }], q, 8)),
  );
  const letters = words.reduce((n, w) => n + w.length, 0) / words.length;
  let deletes = 0;
  for (const w of words) {
    const d = /\d/.test(w) ? 0 : w.length >= 9 ? 2 : w.length >= 5 ? 1 : 0;
    // Distinct deletion variants within d: about C(n, 1) + C(n, 2) for d = 2.
    deletes += d === 0 ? 1 : d === 1 ? 1 + w.length : 1 + w.length + (w.length * (w.length - 1)) / 2;
  }
  console.log(
    `vocabulary of ${words.length} words (${letters.toFixed(1)} letters on average); TermDictionary built in ` +
      `${buildMs.toFixed(0)} ms, heap +${heap.toFixed(1)} MB${gc ? '' : ' (run with NODE_OPTIONS=--expose-gc)'}`,
  );
  console.log(
    `symmetric deletes would index ${deletes} variants (${(deletes / words.length).toFixed(1)} per word, ` +
      `at ~40 bytes each ~${((deletes * 40) / MB).toFixed(0)} MB)`,
  );
  console.log(
    `compounds: keys grouped by their last letters in ${suffixMs.toFixed(0)} ms on the first lookup, ` +
      `heap and array buffers +${suffixHeap.toFixed(1)} MB`,
  );
  printTable(['lookup of one query word (200 words, two letters swapped)', 'p50 ms', 'p99 ms'], rows);
}

main();
