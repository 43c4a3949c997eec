import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@triad/common';
import { contentProblems } from '../../errors.js';
import type { FacetCount } from '../search-query.js';
import { searchSegments, type SegmentSearchOptions } from '../segments/segment-search.js';
import type { SegmentSnapshot } from '../segments/segment-snapshot.js';
import type { FacetCountsCell, Segment } from '../segments/segment.js';
import { entriesAbove, type FromWorker, type PostedSegment, type ScoredSeq, type ToWorker } from './search-messages.js';

/** One search pass's answer (`searchSegments`), its slice asked for once the descriptions are read. */
export interface SearchPass {
  readonly total: number;
  readonly facets: FacetCount[];
  readonly descriptionSeqs: readonly number[];
  hits(descriptions: ReadonlyMap<number, string>): Promise<readonly ScoredSeq[]>;
}

/** Runs search passes somewhere else than the caller's thread (decision 0051). */
export interface SegmentSearcher {
  search(options: SegmentSearchOptions): Promise<SearchPass>;
  close(): Promise<void>;
}

export interface SearchWorkerPoolOptions {
  readonly threads: number;
  /**
   * Snapshots of fewer articles are searched on the caller's thread: their pass costs about what
   * the hop to a worker costs (decision 0051). Workers start with the first larger search. Default 0.
   */
  readonly fromArticles?: number;
  /** Searches one worker holds at most; beyond, on every worker, a search is refused (503). Default 64. */
  readonly maxInFlight?: number;
  /** A search not answered in this time has its worker replaced (503). Default 30 s. */
  readonly timeoutMs?: number;
  /** Told when a worker died or was stopped and started again. */
  readonly onRestart?: (reason: string) => void;
  /** Answers kept for searches asked again (`PassCache`); 0 keeps none. Default `KEPT_PASSES`. */
  readonly keptPasses?: number;
}

/** Answers a pool keeps by default: a few KB each (the facets' buckets and the slice). */
export const KEPT_PASSES = 256;

/** A worker's whole answer to a search: its facets, total and slice. */
interface KeptPass {
  readonly total: number;
  readonly facets: FacetCount[];
  readonly hits: readonly ScoredSeq[];
}

/**
 * The answers of searches that needed no descriptions, by everything the pass reads: the
 * snapshot (immutable; by identity), the match list and its classes (shared lists are never
 * changed, decision 0046's `MatchCache`; by identity, so a list read again for a request is
 * another key) and the query (plain data, by its JSON). A search asked a third time in the
 * same snapshot (a popular word, a shop's filter page) is answered without a worker, with the
 * very total, facets and slice the pass gave (kept at the second). The least recently used go
 * beyond `max`.
 */
class PassCache {
  readonly #max: number;
  readonly #passes = new Map<string, KeptPass>();
  /** Keys of searches answered by a worker once, oldest first. */
  readonly #asked = new Set<string>();
  readonly #ids = new WeakMap<object, number>();
  #nextId = 1;

  constructor(max: number) {
    this.#max = max;
  }

  /** The key of a search, or undefined when it is not to be kept. */
  keyOf(snapshot: number, options: SegmentSearchOptions): string | undefined {
    if (this.#max === 0) return undefined;
    return `${snapshot}/${this.#idOf(options.matches)}/${this.#idOf(options.classes)}/${JSON.stringify(options.query)}`;
  }

  get(key: string): KeptPass | undefined {
    const pass = this.#passes.get(key);
    if (pass === undefined) return undefined;
    this.#passes.delete(key);
    this.#passes.set(key, pass);
    return pass;
  }

  /**
   * Keeps `pass` if its search was asked before among the last `max` searches not answered from
   * here: an answer kept on first sight and dropped unused (searches that do not repeat) would
   * only add to the garbage collector's work.
   */
  set(key: string, pass: KeptPass): void {
    if (!this.#asked.delete(key)) {
      this.#asked.add(key);
      for (const oldest of this.#asked) {
        if (this.#asked.size <= this.#max) break;
        this.#asked.delete(oldest);
      }
      return;
    }
    this.#passes.delete(key);
    this.#passes.set(key, pass);
    for (const oldest of this.#passes.keys()) {
      if (this.#passes.size <= this.#max) break;
      this.#passes.delete(oldest);
    }
  }

  #idOf(list: object | undefined): number {
    if (list === undefined) return 0;
    let id = this.#ids.get(list);
    if (id === undefined) this.#ids.set(list, (id = this.#nextId++));
    return id;
  }
}

interface Waiting {
  resolve(message: FromWorker): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

interface WorkerSlot {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting>;
  /** Snapshot ids posted to it, oldest first (the worker keeps as many). */
  readonly posted: number[];
  /** Highest dictionary key posted to it. */
  dictionaryKeys: number;
  dead: boolean;
}

/** Snapshots a worker keeps (see `search-worker.ts`). */
const KEPT_SNAPSHOTS = 3;

function unavailable(detail: string): Error {
  return contentProblems.create('CONTENT_ERR_SEARCH_UNAVAILABLE', detail);
}

/**
 * Search worker threads (decision 0051): each search goes to the worker with the fewest in
 * flight, after the snapshot it searches (columns shared, not copied) was posted to that worker.
 * A worker that exits or does not answer in time is replaced; its searches fail with 503.
 */
export class SearchWorkerPool implements SegmentSearcher {
  readonly #slots: WorkerSlot[] = [];
  readonly #threads: number;
  readonly #fromArticles: number;
  readonly #maxInFlight: number;
  readonly #timeoutMs: number;
  readonly #onRestart: ((reason: string) => void) | undefined;
  readonly #snapshotIds = new WeakMap<SegmentSnapshot, number>();
  readonly #segmentIds = new WeakMap<Segment, number>();
  readonly #facetIds = new WeakMap<FacetCountsCell, number>();
  readonly #kept: PassCache;
  #keptAnswers = 0;
  #nextId = 1;
  #closed = false;

  constructor(options: SearchWorkerPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1)
      throw new RangeError(`search threads must be a positive integer, not ${options.threads}`);
    this.#threads = options.threads;
    this.#fromArticles = options.fromArticles ?? 0;
    this.#maxInFlight = options.maxInFlight ?? 64;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#onRestart = options.onRestart;
    this.#kept = new PassCache(options.keptPasses ?? KEPT_PASSES);
  }

  get threads(): number {
    return this.#threads;
  }

  /** Searches answered from kept answers so far (`PassCache`), for tests and statistics. */
  get keptAnswers(): number {
    return this.#keptAnswers;
  }

  /** Workers running now (none before the first search large enough for them). */
  get started(): number {
    return this.#slots.length;
  }

  /**
   * Starts the workers now when a catalog of `articles` is large enough for them, so the first
   * search does not wait for their start (a few hundred milliseconds under tsx); else nothing.
   */
  prepare(articles: number): void {
    if (this.#closed || articles < this.#fromArticles) return;
    while (this.#slots.length < this.#threads) this.#slots.push(this.#start());
  }

  #start(): WorkerSlot {
    const worker = startModuleWorker(import.meta.url, 'search-worker');
    worker.unref();
    const slot: WorkerSlot = { worker, waiting: new Map(), posted: [], dictionaryKeys: 0, dead: false };
    worker.on('message', (message: FromWorker) => {
      const waiting = slot.waiting.get(message.id);
      if (!waiting) return;
      slot.waiting.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.type === 'error') waiting.reject(new Error(`search failed in a worker: ${message.message}`));
      else waiting.resolve(message);
    });
    worker.on('error', (error) => this.#replace(slot, `search worker failed: ${error.message}`));
    worker.on('exit', (code) => this.#replace(slot, `search worker exited with code ${code}`));
    return slot;
  }

  /** Fails the slot's searches and starts a new worker in its place (unless closed). */
  #replace(slot: WorkerSlot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const waiting of slot.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(unavailable(`${reason}; try the search again`));
    }
    slot.waiting.clear();
    void slot.worker.terminate();
    if (this.#closed) return;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots[at] = this.#start();
    this.#onRestart?.(reason);
  }

  #idOf(snapshot: SegmentSnapshot): number {
    let id = this.#snapshotIds.get(snapshot);
    if (id === undefined) this.#snapshotIds.set(snapshot, (id = this.#nextId++));
    return id;
  }

  #post(slot: WorkerSlot, snapshot: SegmentSnapshot): number {
    const id = this.#idOf(snapshot);
    if (slot.posted.includes(id)) return id;
    const segments: PostedSegment[] = snapshot.segments.map((segment) => {
      let segmentId = this.#segmentIds.get(segment);
      if (segmentId === undefined) this.#segmentIds.set(segment, (segmentId = this.#nextId++));
      const cell = segment.facetCountsCell;
      let facets = this.#facetIds.get(cell);
      if (facets === undefined) this.#facetIds.set(cell, (facets = this.#nextId++));
      return { id: segmentId, header: segment.header, columns: segment.columns, idRank: segment.idRank, facets };
    });
    const entries = entriesAbove(snapshot.dictionary, slot.dictionaryKeys);
    const message: ToWorker = { type: 'snapshot', id, hash: snapshot.hash, segments, entries };
    slot.worker.postMessage(message);
    slot.dictionaryKeys = Math.max(slot.dictionaryKeys, snapshot.dictionary.maxKey);
    slot.posted.push(id);
    if (slot.posted.length > KEPT_SNAPSHOTS) slot.posted.shift();
    return id;
  }

  #ask(slot: WorkerSlot, message: ToWorker & { id: number }): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.#replace(slot, `a search took longer than ${this.#timeoutMs / 1000} s`),
        this.#timeoutMs,
      );
      slot.waiting.set(message.id, { resolve, reject, timer });
      slot.worker.postMessage(message);
    });
  }

  async search(options: SegmentSearchOptions): Promise<SearchPass> {
    if (this.#closed) throw new Error('the search workers are closed');
    if (options.snapshot.articleCount < this.#fromArticles) {
      const pass = searchSegments(options);
      return { ...pass, hits: (descriptions) => Promise.resolve(pass.hits(descriptions)) };
    }
    const key = this.#kept.keyOf(this.#idOf(options.snapshot), options);
    const kept = key === undefined ? undefined : this.#kept.get(key);
    if (kept) {
      this.#keptAnswers += 1;
      return { ...kept, descriptionSeqs: [], hits: () => Promise.resolve(kept.hits) };
    }
    while (this.#slots.length < this.#threads) this.#slots.push(this.#start());
    let slot: WorkerSlot | undefined;
    for (const candidate of this.#slots) if (!slot || candidate.waiting.size < slot.waiting.size) slot = candidate;
    if (!slot || slot.waiting.size >= this.#maxInFlight)
      throw unavailable(`every search worker holds ${this.#maxInFlight} searches; try again in a moment`);
    const chosen = slot;
    const snapshot = this.#post(chosen, options.snapshot);
    const id = this.#nextId++;
    const answer = await this.#ask(chosen, {
      type: 'search',
      id,
      snapshot,
      query: options.query,
      matches: options.matches,
      classes: options.classes,
    });
    if (answer.type !== 'result') throw new Error(`search worker answered ${answer.type} to a search`);
    if (key !== undefined && answer.hits)
      this.#kept.set(key, { total: answer.total, facets: answer.facets, hits: answer.hits });
    return {
      total: answer.total,
      facets: answer.facets,
      descriptionSeqs: answer.descriptionSeqs,
      hits: async (descriptions) => {
        if (answer.hits) return answer.hits;
        if (chosen.dead) throw unavailable('the search worker holding this search stopped; try the search again');
        const reply = await this.#ask(chosen, { type: 'hits', id, descriptions });
        if (reply.type !== 'hits') throw new Error(`search worker answered ${reply.type} to hits`);
        return reply.hits;
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#slots.map((slot) => slot.worker.terminate()));
  }
}
