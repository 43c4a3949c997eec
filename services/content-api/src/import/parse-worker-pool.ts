/**
 * The catalog parse workers (`catalog-parse-worker.ts`), kept from one parse to the next. A worker
 * started for one import parses its first pieces with code V8 has not compiled yet: the 10,000
 * items of a 20 MB update file took 0.75-0.86 s and 1.4-1.6 s of CPU on two new workers (built),
 * against 0.41 s and 0.5 s parsed on a thread that had parsed the file before (decision 0054).
 * The pool's workers stay between parses, idle ones not keeping the process alive, so a delta
 * finds them started and their code compiled.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@triad/common';
import type { ParseReply, ParseRequest } from './parse-piece.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';

/** A message to a parse worker: a piece and the shop its records are for. */
export interface ParseMessage {
  readonly request: ParseRequest;
  readonly shopId: string;
  /** The shop's price terms when it has any, else its id (as `parsePiece` takes it). */
  readonly shop: string | ShopPriceTerms;
}

/** What a parse worker posts: once `ready` when it has started, then one reply per message, in order. */
export type ParseWorkerAnswer = ParseReply | { readonly kind: 'ready' };

interface Waiter {
  resolve(reply: ParseReply): void;
  reject(error: Error): void;
}

/** One worker of the pool and the messages it has not answered yet, oldest first. */
class PoolWorker {
  readonly thread: Worker;
  readonly waiting: Waiter[] = [];
  started = false;
  failed = false;
  /** Settles when the worker has started, or has failed before it did. */
  readonly ready: Promise<void>;
  readonly #ready: { resolve: () => void; reject: (error: Error) => void };

  constructor(thread: Worker) {
    this.thread = thread;
    let ready!: { resolve: () => void; reject: (error: Error) => void };
    this.ready = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
    this.ready.catch(() => {}); // a worker nobody waits for may fail
    this.#ready = ready;
  }

  markStarted(): void {
    this.started = true;
    this.#ready.resolve();
  }

  markFailed(error: Error): void {
    this.failed = true;
    this.started = false;
    this.#ready.reject(error);
  }
}

/**
 * How long the workers stay without a parse: an idle worker holds the heap its last parse left
 * (50-95 MB each, measured), so a process that has not imported for this long lets them go and
 * the next parse starts new ones.
 */
export const PARSE_WORKERS_IDLE_MS = 10 * 60 * 1000;

/** Parse workers shared by the parses of this process (see the module's comment). */
export class ParseWorkerPool {
  readonly size: number;
  readonly #idleMs: number;
  readonly #workers: PoolWorker[] = [];
  #turn = 0;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;

  /** `idleMs`: how long the workers stay without a parse (`PARSE_WORKERS_IDLE_MS`). */
  constructor(size: number, idleMs = PARSE_WORKERS_IDLE_MS) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`a parse worker pool needs 1 or more workers, not ${size}`);
    this.size = size;
    this.#idleMs = idleMs;
  }

  /** Starts the workers that are not running (a new pool's, or in place of one that failed). */
  prepare(): void {
    if (this.#closed) throw new Error('the parse worker pool is closed');
    while (this.#workers.length < this.size) this.#workers.push(this.#spawn());
  }

  /** Starts the workers that are not running and resolves once every one has started. */
  async whenStarted(): Promise<void> {
    this.prepare();
    // Waited for, a starting worker keeps the process alive until it has started.
    for (const worker of this.#workers) if (!worker.started) worker.thread.ref();
    await Promise.all(this.#workers.map((w) => w.ready));
  }

  /** How many workers have started (answered that they are ready). */
  get started(): number {
    let started = 0;
    for (const worker of this.#workers) if (worker.started) started += 1;
    return started;
  }

  /**
   * The reply to `message`, from the started worker with the fewest messages waiting (any
   * worker while none has started: it answers once it has). `transfer` goes with the message.
   * Rejects when that worker fails or exits before it answers.
   */
  parse(message: ParseMessage, transfer: readonly ArrayBuffer[] = []): Promise<ParseReply> {
    this.prepare();
    clearTimeout(this.#idle);
    const worker = this.#pick();
    return new Promise<ParseReply>((resolve, reject) => {
      // A worker with work to do keeps the process alive until it answers; an idle one does not.
      if (worker.waiting.length === 0) worker.thread.ref();
      worker.waiting.push({ resolve, reject });
      worker.thread.postMessage(message, [...transfer]);
    });
  }

  /** Stops every worker; messages not answered yet are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idle);
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.thread.terminate()));
  }

  /** Once no worker has a message waiting: the workers stop after `idleMs` unless a parse comes first. */
  #whenIdle(): void {
    if (this.#workers.some((w) => w.waiting.length > 0)) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#workers.some((w) => w.waiting.length > 0)) return;
      for (const worker of this.#workers.splice(0)) void worker.thread.terminate();
    }, this.#idleMs);
    this.#idle.unref();
  }

  #pick(): PoolWorker {
    const started = this.#workers.filter((w) => w.started);
    const from = started.length > 0 ? started : this.#workers;
    let best: PoolWorker | undefined;
    for (let i = 0; i < from.length; i += 1) {
      const worker = from[(this.#turn + i) % from.length]!;
      if (!best || worker.waiting.length < best.waiting.length) best = worker;
    }
    this.#turn += 1;
    return best!;
  }

  #spawn(): PoolWorker {
    const worker = new PoolWorker(startModuleWorker(import.meta.url, 'catalog-parse-worker'));
    worker.thread.on('message', (answer: ParseWorkerAnswer) => {
      if (answer.kind === 'ready') {
        worker.markStarted();
        if (worker.waiting.length > 0) return;
        worker.thread.unref();
        // Started for a parse that ended on the importing thread, it is idle from the start.
        this.#whenIdle();
        return;
      }
      worker.waiting.shift()?.resolve(answer);
      if (worker.waiting.length > 0) return;
      worker.thread.unref();
      this.#whenIdle();
    });
    const fail = (error: Error) => {
      if (worker.failed) return;
      worker.markFailed(error);
      const at = this.#workers.indexOf(worker);
      if (at >= 0) this.#workers.splice(at, 1);
      for (const waiter of worker.waiting.splice(0)) waiter.reject(error);
    };
    worker.thread.on('error', fail);
    worker.thread.on('exit', (code) => fail(new Error(`catalog parse worker exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.thread.unref();
    return worker;
  }
}

let shared: ParseWorkerPool | undefined;

/** The pool the parses of this process share: one worker per core, 1 to 4. */
export function sharedParseWorkers(): ParseWorkerPool {
  shared ??= new ParseWorkerPool(Math.min(4, Math.max(1, availableParallelism())));
  return shared;
}
