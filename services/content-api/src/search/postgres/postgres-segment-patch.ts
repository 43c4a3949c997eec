import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { compareCodePoints } from '../code-point-order.js';
import { patchedDescriptionRanksBatched } from '../segments/patched-description-ranks.js';
import { mergedIdOrder } from '../segments/patched-id-order.js';
import { patchBucketWithWords, type PatchedBucket } from '../segments/patched-buckets.js';
import {
  chunkBytes,
  COLUMN_CHUNK,
  COLUMN_NAMES,
  COLUMN_TYPES,
  columnsFromChunks,
  OPTIONAL_COLUMNS,
  type ColumnName,
  SLOT_SPAN,
  type SegmentColumns,
} from '../segments/segment-columns.js';
import { bucketOf, type PostingsChange } from '../segments/word-postings.js';
import { MAX_WORDS } from '../segments/segment-builder.js';
import { hasDigit } from '../segments/term-dictionary.js';
import {
  PostgresDictionary,
  segmentRowOf,
  STORED_ROW_COLUMNS,
  STORED_ROWS,
  storedValuesOf,
  touchCatalog,
  type StoredRow,
} from './postgres-segment-writer.js';
import type { SqlExecutor } from './sql-executor.js';
import { copyRowsOut, integerArray } from './copy-rows.js';

/** Buckets per update statement. */
const BUCKET_BATCH = 64;

/**
 * Vocabulary changes kept per segment (`content_vocabulary_changes`): a reader that missed more
 * deltas of a shop than these since it read its vocabulary reads the whole vocabulary again.
 */
const KEPT_VOCABULARY_CHANGES = 8;

/**
 * What a delta did to one shop's positions, gathered while it runs (`postgres-shop-delta.ts`),
 * so the segment can be patched instead of built again from every row.
 */
export class SegmentTrace {
  /** Articles in the segment before the delta. */
  readonly oldSize: number;
  /** The search text a position held before the delta, for positions whose text may have changed. */
  readonly oldTexts = new Map<number, string>();
  /** The description a position held before the delta, for the same positions. */
  readonly oldDescriptions = new Map<number, string>();
  /** Positions whose words, description or id may have changed (written, deleted, moved, new). */
  readonly rewritten = new Set<number>();
  /** Positions whose prices changed (their words did not): the delta's own record of new prices. */
  readonly priced: ReadonlyMap<number, unknown>;
  /** Positions below `oldSize` whose article (as the id order knew it) was deleted. */
  readonly deletedOld = new Set<number>();
  /** Positions (`oldSize` and above) holding an article this delta added, as stored before the moves. */
  readonly added = new Set<number>();
  /** Articles moved into freed places at the end: old position to new one. */
  readonly moves = new Map<number, number>();

  constructor(oldSize: number, priced: ReadonlyMap<number, unknown>) {
    this.oldSize = oldSize;
    this.priced = priced;
  }

  /** Notes the stored text and description of `position` as read before this change touches it. */
  stored(position: number, searchText: string, description: string): void {
    if (position >= this.oldSize || this.oldTexts.has(position)) return;
    this.oldTexts.set(position, searchText);
    this.oldDescriptions.set(position, description);
  }

  /** An article stored at `position` was written again. */
  updated(position: number): void {
    this.rewritten.add(position);
  }

  /** A new article was stored at `position` (`oldSize` or above). */
  appended(position: number): void {
    this.rewritten.add(position);
    this.added.add(position);
  }

  /** The article at `position` was deleted: an old one, or one this delta added. */
  deleted(position: number): void {
    this.rewritten.add(position);
    if (position < this.oldSize) this.deletedOld.add(position);
    else this.added.delete(position);
  }

  /** The article at `from` (its text and description as stored) moved into the freed place `to`. */
  moved(from: number, to: number, searchText: string, description: string): void {
    this.stored(from, searchText, description);
    this.rewritten.add(from);
    this.rewritten.add(to);
    this.moves.set(from, to);
  }

  /** Positions touched: the patch reads their rows again. */
  get touched(): number {
    return this.rewritten.size + this.priced.size;
  }
}

/**
 * A segment as a patch wrote it: every column of the `size` articles of `slot` as stored under
 * the segment generation `generation` (new with the patch, so no other write stores it), and
 * the vocabulary change it recorded from postings generation `previousPostingsGeneration` to
 * `postingsGeneration`: each changed word without and with digits and its article count now.
 */
export interface WrittenSegment {
  readonly slot: number;
  readonly generation: string;
  readonly size: number;
  readonly columns: SegmentColumns;
  readonly postingsGeneration: string;
  readonly previousPostingsGeneration: string;
  readonly letters: readonly (readonly [string, number])[];
  readonly digits: readonly (readonly [string, number])[];
  /**
   * The postings buckets the patch wrote, by bucket (their bytes as stored under
   * `postingsGeneration`); empty when they were more than `MAX_HANDED_POSTINGS_BYTES`.
   */
  readonly postings: ReadonlyMap<number, Uint8Array>;
}

/** Most bytes of postings buckets a patch hands over (beyond, a reader reads the buckets it needs). */
export const MAX_HANDED_POSTINGS_BYTES = 64 * 1024 * 1024;

/** A row as the patch reads it back, at its final position. */
interface FinalRow extends StoredRow {
  readonly position: number;
  readonly id: string;
  readonly d: string;
}

/**
 * Patches the segment in `slot` (stored with `trace.oldSize` articles; the rows now hold
 * `size`, at positions `0..size-1`) after a delta: the columns at the positions touched, the
 * description ranks (`patchedDescriptionRanksBatched`) and the id order (removed, moved and new
 * ids placed after the ids before them, `precedingSeqs`), each reading only the rows it needs,
 * and the postings of the words of every old and new text of a rewritten position. Only chunks and buckets that
 * changed are written. The segment gets a new generation (and postings generation) and the
 * catalog a new one; the article count of every word whose postings changed is recorded for the
 * new postings generation (`content_vocabulary_changes`, migration 0020), so readers patch the
 * vocabulary they hold instead of reading it again. Resolves with the columns as written, for a
 * reader of this process to take instead of reading them back (valid only once `trx` commits).
 */
export async function patchPostgresSegment(
  trx: SqlExecutor,
  slot: number,
  size: number,
  trace: SegmentTrace,
  /** Buckets written per statement (tests set it low). */
  bucketBatch = BUCKET_BATCH,
): Promise<WrittenSegment> {
  const base = slot * SLOT_SPAN;
  const header = (
    await sql<{ buckets: number; postingsGeneration: string; shopId: string }>`
      select bucket_count as buckets, postings_generation as "postingsGeneration", shop_id as "shopId"
      from content_segments where slot = ${slot}`.execute(trx)
  ).rows[0];
  if (!header) throw new Error(`no segment in slot ${slot} to patch`);
  for (const position of trace.rewritten)
    if (position < trace.oldSize && !trace.oldTexts.has(position))
      throw new Error(`position ${position} of slot ${slot} was rewritten without its old text`);
  const finalPositions = [...new Set([...trace.rewritten, ...trace.priced.keys()])].filter((p) => p < size);
  const rows = await readRows(trx, base, finalPositions);
  if (rows.size !== finalPositions.length)
    throw new Error(`${rows.size} of ${finalPositions.length} patched articles found in slot ${slot}`);
  const old = await readColumns(trx, slot, trace.oldSize);

  // Per-article columns.
  const dictionary = await PostgresDictionary.load(trx);
  const fresh = <N extends ColumnName>(name: N): SegmentColumns[N] => {
    const column = new COLUMN_TYPES[name](size) as SegmentColumns[N];
    const from = old[name];
    (column as Uint32Array).set((from as Uint32Array).subarray(0, Math.min(size, trace.oldSize)));
    return column;
  };
  const columns = {
    manufacturer: fresh('manufacturer'),
    unspsc7: fresh('unspsc7'),
    unspsc9: fresh('unspsc9'),
    unspsc: fresh('unspsc'),
    eclass: fresh('eclass'),
    etim: fresh('etim'),
    price: fresh('price'),
    priceInclSpecialTaxes: fresh('priceInclSpecialTaxes'),
    words: fresh('words'),
  };
  for (const row of rows.values()) {
    const i = row.position;
    const values = segmentRowOf(dictionary, storedValuesOf(row));
    columns.manufacturer[i] = values.manufacturer;
    columns.unspsc7[i] = values.unspsc7;
    columns.unspsc9[i] = values.unspsc9;
    columns.unspsc[i] = values.unspsc;
    columns.eclass[i] = values.eclass;
    columns.etim[i] = values.etim;
    columns.price[i] = values.price;
    columns.priceInclSpecialTaxes[i] = values.priceInclSpecialTaxes;
    columns.words[i] = Math.min(values.words, MAX_WORDS);
  }
  let wordTotal = 0;
  for (let i = 0; i < size; i += 1) wordTotal += columns.words[i] ?? 0;

  // Description ranks: a rewritten position keeps the old rank of its article when the
  // description stayed (a moved article, an update of other fields); the others are ranked again.
  const previous = new Uint32Array(size);
  previous.set(old.descriptionRank.subarray(0, Math.min(size, trace.oldSize)));
  const movedFrom = new Map([...trace.moves].map(([from, to]) => [to, from]));
  const changed = new Map<number, string>();
  for (const position of trace.rewritten)
    if (position < size) {
      const origin = movedFrom.get(position) ?? position;
      const description = finalRow(rows, position).d;
      if (origin < trace.oldSize && trace.oldDescriptions.get(origin) === description)
        previous[position] = old.descriptionRank[origin] ?? 0;
      else {
        previous[position] = 0;
        changed.set(position, description);
      }
    }
  for (let i = trace.oldSize; i < size; i += 1)
    if (!changed.has(i)) throw new Error(`position ${i} is new to slot ${slot} but was not traced`);
  // Three independent parts, overlapped: the statements of one run while another computes.
  const [descriptionRank, idOrder, changes] = await Promise.all([
    patchedDescriptionRanksBatched(
      previous,
      changed,
      (positions) => readTexts(trx, base, positions, 'description'),
      knownDescriptions(trace, old.descriptionRank),
    ),
    patchIdOrder(trx, header.shopId, base, size, old.idOrder, trace, rows),
    patchPostings(trx, slot, header.buckets, size, trace, rows, bucketBatch),
  ]);
  const written: SegmentColumns = { ...columns, idOrder, descriptionRank };
  await writeColumns(trx, slot, size, trace.oldSize, old, written);
  await dictionary.flush(trx);
  const postingsGeneration = randomUUID();
  const generation = randomUUID();
  await sql`update content_segments set generation = ${generation}, postings_generation = ${postingsGeneration},
      article_count = ${size}, word_total = ${wordTotal}
    where slot = ${slot}`.execute(trx);
  await sql`insert into content_vocabulary_changes (slot, postings_generation, previous_generation, changes)
    values (${slot}, ${postingsGeneration}, ${header.postingsGeneration},
      ${JSON.stringify([...changes.letters.encoded(), ...changes.digits.encoded()])})`.execute(trx);
  await sql`delete from content_vocabulary_changes where slot = ${slot} and written not in (
      select written from content_vocabulary_changes where slot = ${slot} order by written desc
      limit ${KEPT_VOCABULARY_CHANGES})`.execute(trx);
  await touchCatalog(trx);
  return {
    slot,
    generation,
    size,
    columns: written,
    postingsGeneration,
    previousPostingsGeneration: header.postingsGeneration,
    letters: changes.letters.pairs(),
    digits: changes.digits.pairs(),
    postings: changes.buckets,
  };
}

/**
 * Words and their article counts as a vocabulary change records them: the words joined by line
 * breaks (no indexed word holds one), the counts in the same order.
 */
class VocabularyChanges {
  readonly #words: string[] = [];
  readonly #counts: number[] = [];

  add(word: string, articles: number): void {
    this.#words.push(word);
    this.#counts.push(articles);
  }

  encoded(): [words: string, counts: number[]] {
    return [this.#words.join('\n'), this.#counts];
  }

  /** Each word with its count, in order (what a reader decodes from `encoded`). */
  pairs(): (readonly [string, number])[] {
    return this.#words.map((word, i) => [word, this.#counts[i] ?? 0] as const);
  }
}

/**
 * The descriptions the delta read before it changed them, by their old rank: the articles it
 * rewrote, deleted or moved. The description ranks' searches start between them.
 */
function knownDescriptions(trace: SegmentTrace, ranks: Uint32Array): Map<number, string> {
  const known = new Map<number, string>();
  for (const [position, description] of trace.oldDescriptions) {
    const rank = ranks[position] ?? 0;
    if (rank > 0) known.set(rank, description);
  }
  return known;
}

/** The words of a search text (words joined by single spaces). */
function wordsOf(text: string): string[] {
  return text === '' ? [] : text.split(' ');
}

async function readRows(trx: SqlExecutor, base: number, positions: readonly number[]): Promise<Map<number, FinalRow>> {
  const rows = await sql<FinalRow>`
    select (seq - ${base}::bigint)::float8 as position, article_id as id, ${STORED_ROW_COLUMNS}, description as d
    from ${STORED_ROWS} where seq = any(${positions.map((p) => base + p)}::bigint[])`.execute(trx);
  return new Map(rows.rows.map((r) => [r.position, r]));
}

/** One text column of the rows at `positions`, by position. */
async function readTexts(
  trx: SqlExecutor,
  base: number,
  positions: readonly number[],
  column: 'description' | 'article_id',
): Promise<Map<number, string>> {
  const rows = await sql<{ position: number; text: string }>`
    select (seq - ${base}::bigint)::float8 as position, ${sql.ref(column)} as text
    from content_articles where seq = any(${positions.map((p) => base + p)}::bigint[])`.execute(trx);
  return new Map(rows.rows.map((r) => [r.position, r.text]));
}

/**
 * The segment's columns as stored, through binary COPY (`copyRowsOut`): the chunks' bytes as they
 * are, where a query's result brings each as hex text twice its size (every chunk of the shop).
 */
async function readColumns(trx: SqlExecutor, slot: number, size: number): Promise<SegmentColumns> {
  const rows = await copyRowsOut(
    trx,
    `select name, data from content_segment_columns where slot = any(${integerArray([slot], 'segment columns')}::int[])
      order by name, chunk`,
  );
  const chunks = new Map<string, Buffer[]>(COLUMN_NAMES.map((n) => [n, []]));
  for (const [name, data] of rows) if (name && data) chunks.get(name.toString('utf8'))?.push(data);
  return columnsFromChunks(size, chunks as Map<ColumnName, Buffer[]>);
}

/**
 * The id order after the delta: old entries without the deleted articles, moved ones renamed,
 * and the new articles merged in after the article whose id precedes theirs (`precedingSeqs`).
 */
async function patchIdOrder(
  trx: SqlExecutor,
  shopId: string,
  base: number,
  size: number,
  before: Uint32Array,
  trace: SegmentTrace,
  rows: ReadonlyMap<number, FinalRow>,
): Promise<Uint32Array> {
  const kept: number[] = [];
  for (const position of before) {
    if (trace.deletedOld.has(position)) continue;
    kept.push(trace.moves.get(position) ?? position);
  }
  // New articles: stored at `oldSize` or above during the delta, wherever they ended up.
  const added: { id: string; position: number }[] = [];
  for (const stored of trace.added) {
    const position = trace.moves.get(stored) ?? stored;
    const row = rows.get(position);
    if (!row) throw new Error(`new article at position ${position} of a segment of ${size} was not read`);
    added.push({ id: row.id, position });
  }
  added.sort((a, b) => compareCodePoints(a.id, b.id));
  const preceding = kept.length === 0 ? [] : await precedingSeqs(trx, shopId, base, added);
  return mergedIdOrder(
    size,
    kept,
    added.map((a) => a.position),
    preceding.map((seq) => (seq === null || seq === undefined ? null : seq - base)),
  );
}

/**
 * For each new article (in id order), the seq of the article whose id comes right before its own
 * among the shop's (code point order, as collation "C" compares), or null when none does: one
 * probe of the id index per new article, in one statement, instead of a binary search reading ids
 * at scattered positions. A shop's ids, and only its ids, start with `<shop id>:` (ids are checked
 * so, `checkShopArticle`, and a shop id holds no colon), so the ids from that prefix up to a new
 * one are the shop's: the probe needs no condition on the slot (one on `seq` led the planner to
 * scan the slot through the primary key, its statistics older than the slot's rows).
 */
async function precedingSeqs(
  trx: SqlExecutor,
  shopId: string,
  base: number,
  added: readonly { readonly id: string }[],
): Promise<(number | null)[]> {
  if (added.length === 0) return [];
  const { rows } = await sql<{ n: number; seq: number | null }>`
    select x.n::float8 as n, p.seq::float8 as seq
    from unnest(${added.map((a) => a.id)}::text[]) with ordinality as x (id, n)
    left join lateral (
      select a.seq from content_articles a
      where a.article_id collate "C" < x.id collate "C" and a.article_id collate "C" >= ${`${shopId}:`} collate "C"
      order by a.article_id collate "C" desc
      limit 1) p on true`.execute(trx);
  const seqs = new Array<number | null>(added.length).fill(null);
  for (const row of rows) {
    if (row.seq !== null && (row.seq < base || row.seq >= base + SLOT_SPAN))
      throw new Error(`the id before a new article of ${shopId} is not in the shop's slot (seq ${row.seq})`);
    seqs[row.n - 1] = row.seq;
  }
  return seqs;
}

/** Writes the chunks that differ from the stored ones, adds new ones, and drops those past `size`. */
async function writeColumns(
  trx: SqlExecutor,
  slot: number,
  size: number,
  oldSize: number,
  old: SegmentColumns,
  columns: SegmentColumns,
): Promise<void> {
  const oldChunks = Math.ceil(oldSize / COLUMN_CHUNK);
  const newChunks = Math.ceil(size / COLUMN_CHUNK);
  for (const name of COLUMN_NAMES) {
    for (let chunk = 0; chunk < newChunks; chunk += 1) {
      const from = chunk * COLUMN_CHUNK;
      const length = Math.min(COLUMN_CHUNK, size - from);
      const data = chunkBytes(columns[name].subarray(from, from + length), length);
      if (chunk < oldChunks) {
        const oldLength = Math.min(COLUMN_CHUNK, oldSize - from);
        if (oldLength === length && data.equals(chunkBytes(old[name].subarray(from, from + length), length))) continue;
        // A column an older release did not write (`OPTIONAL_COLUMNS`) has no chunk to update yet.
        if (OPTIONAL_COLUMNS.has(name))
          await sql`insert into content_segment_columns (slot, name, chunk, data)
            values (${slot}, ${name}, ${chunk}, ${data})
            on conflict (slot, name, chunk) do update set data = excluded.data`.execute(trx);
        else
          await sql`update content_segment_columns set data = ${data}
            where slot = ${slot} and name = ${name} and chunk = ${chunk}`.execute(trx);
      } else
        await sql`insert into content_segment_columns (slot, name, chunk, data)
          values (${slot}, ${name}, ${chunk}, ${data})`.execute(trx);
    }
  }
  if (newChunks < oldChunks)
    await sql`delete from content_segment_columns where slot = ${slot} and chunk >= ${newChunks}`.execute(trx);
}

/**
 * Patches and writes the buckets holding a word of an old or new text of a rewritten position
 * (each position leaves the words of its old text and joins those of its new one); returns each
 * changed word's article count now (0: gone). The buckets are written `BUCKET_BATCH` at a time,
 * each batch's statement sent before the next batch is patched, so the server writes one batch
 * while this process patches the next (a delta that touches a whole shop patches all its buckets).
 */
async function patchPostings(
  trx: SqlExecutor,
  slot: number,
  bucketCount: number,
  size: number,
  trace: SegmentTrace,
  rows: ReadonlyMap<number, FinalRow>,
  bucketBatch: number,
): Promise<{ letters: VocabularyChanges; digits: VocabularyChanges; buckets: Map<number, Uint8Array> }> {
  const words = new Map<string, { removed: number[]; added: number[] }>();
  const changeOf = (word: string) => {
    let change = words.get(word);
    if (!change) words.set(word, (change = { removed: [], added: [] }));
    return change;
  };
  for (const [position, text] of [...trace.oldTexts].sort((a, b) => a[0] - b[0]))
    for (const word of new Set(wordsOf(text))) changeOf(word).removed.push(position);
  const positions = [...trace.rewritten].filter((p) => p < size).sort((a, b) => a - b);
  for (const position of positions)
    for (const word of new Set(wordsOf(finalRow(rows, position).t))) changeOf(word).added.push(position);
  const byBucket = new Map<number, Map<string, PostingsChange>>();
  for (const [word, list] of words) {
    const bucket = bucketOf(word, bucketCount);
    const entry = byBucket.get(bucket);
    if (entry) entry.set(word, list);
    else byBucket.set(bucket, new Map([[word, list]]));
  }
  const buckets = [...byBucket.keys()];
  // The buckets' bytes as they are (COPY's binary format): a query's result brings a bytea as hex
  // text, twice its size, decoded here again; a delta that touches a whole shop reads all of its buckets.
  const stored = await copyRowsOut(
    trx,
    `select bucket, data from content_postings where slot = any(${integerArray([slot], 'postings buckets')}::int[])
      and bucket = any(${integerArray(buckets, 'postings buckets')}::int[])`,
  );
  if (stored.length !== buckets.length)
    throw new Error(`${stored.length} of ${buckets.length} postings buckets found in slot ${slot}`);
  const changes = {
    letters: new VocabularyChanges(),
    digits: new VocabularyChanges(),
    buckets: new Map<number, Uint8Array>(),
  };
  // The buckets written are kept for the reader up to the bound only: past it, none are (and those
  // kept so far are let go at once, not at the end of the patch).
  let bucketBytes = 0;
  const writes: Promise<void>[] = [];
  if (!(bucketBatch >= 1)) throw new Error(`buckets are written at least one a statement, not ${bucketBatch}`);
  for (let at = 0; at < stored.length; at += bucketBatch) {
    const batch = stored.slice(at, at + bucketBatch).map(([bucketBytes, data]) => {
      const bucket = bucketBytes!.readInt32BE(0);
      const bucketChanges = byBucket.get(bucket);
      if (!bucketChanges || !data) throw new Error(`postings bucket ${bucket} of slot ${slot} was not asked for`);
      return { bucket, ...patchBucketWithWords(data, bucketChanges) };
    });
    for (const b of batch) {
      for (const [word, count] of b.counts) (hasDigit(word) ? changes.digits : changes.letters).add(word, count);
      if (bucketBytes > MAX_HANDED_POSTINGS_BYTES) continue;
      bucketBytes += b.data.length;
      if (bucketBytes > MAX_HANDED_POSTINGS_BYTES) changes.buckets.clear();
      else changes.buckets.set(b.bucket, b.data);
    }
    const written = writeBuckets(trx, slot, batch);
    // Awaited below; until then a failure must not count as unhandled.
    written.catch(() => {});
    writes.push(written);
    // A turn of the event loop: the statement reaches the server before the next batch is patched.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(writes);
  return changes;
}

/** Writes patched postings buckets of `slot` (data and words), in one statement and at most one more. */
async function writeBuckets(
  trx: SqlExecutor,
  slot: number,
  batch: readonly ({ bucket: number } & PatchedBucket)[],
): Promise<void> {
  // One parameter per bucket: node-postgres sends a Buffer as binary, but an array of them as hex text.
  const values = batch.map((b) => sql`(${b.bucket}::int, ${b.data}::bytea, ${b.words}::bytea)`);
  // Data and words in one statement. Migration 0015's trigger drops the words of a row whose
  // data is set and whose words stay as stored (as a release that knew only `data` would leave
  // them): where the new words equal the stored ones, they are set again in a statement of their own.
  const updated = await sql<{
    bucket: number;
    dropped: boolean;
  }>`update content_postings p set data = v.data, words = v.words
    from (values ${sql.join(values)}) as v (bucket, data, words)
    where p.slot = ${slot} and p.bucket = v.bucket
    returning p.bucket, p.words is null as dropped`.execute(trx);
  const again = new Set(updated.rows.filter((r) => r.dropped).map((r) => r.bucket));
  if (again.size === 0) return;
  const words = batch.flatMap((b) => (again.has(b.bucket) ? [sql`(${b.bucket}::int, ${b.words}::bytea)`] : []));
  await sql`update content_postings p set words = v.words from (values ${sql.join(words)}) as v (bucket, words)
    where p.slot = ${slot} and p.bucket = v.bucket`.execute(trx);
}

/** The row read for `position`. @throws Error when it was not read. */
function finalRow(rows: ReadonlyMap<number, FinalRow>, position: number): FinalRow {
  const row = rows.get(position);
  if (!row) throw new Error(`no article row read at position ${position}`);
  return row;
}
