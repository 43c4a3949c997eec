import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@triad/common';
import type { HistoryValue } from '../model/device-history.js';
import type { DeviceHistoryRepository, HistoryRows } from './device-history-repository.js';
import type { HistoryWriteReply, HistoryWriteRequest } from './history-write-worker.js';

export interface HistoryWriteThreadOptions {
  /** The SQLite file (not `:memory:`, which a second connection cannot open). */
  readonly file: string;
  /** Resolves series ids on this thread's connection (`rowsOf`). */
  readonly repository: Pick<DeviceHistoryRepository, 'rowsOf'>;
  readonly log: { warn(object: object, message: string): void };
}

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Writes device history to a SQLite file from a worker thread with a connection of its own
 * (decision 0050, "History on its own thread"): the SQLite work of a batch, most of the history's
 * cost, runs on another core and no longer holds up collection and HTTP on the main thread. The
 * main thread resolves series ids (cached; new series are created here) and posts the batch as
 * typed arrays. WAL lets the main connection read meanwhile; its writes wait for the batch's
 * transaction (the busy timeout). A write the worker fails, or a worker that dies, rejects, and
 * `HistoryWriter` keeps the batch for its next flush; the next write starts a new worker.
 */
export class HistoryWriteThread {
  readonly #options: HistoryWriteThreadOptions;
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #closed = false;

  constructor(options: HistoryWriteThreadOptions) {
    this.#options = options;
  }

  async write(values: readonly HistoryValue[]): Promise<void> {
    if (values.length === 0) return;
    const rows = await this.#options.repository.rowsOf(values);
    await this.writeRows(rows);
  }

  /** Writes rows whose series ids are known; the typed arrays are moved to the worker (unusable here after). */
  writeRows(rows: HistoryRows): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('device history thread closed'));
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    const request: HistoryWriteRequest = { id, rows };
    return new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage(request, [rows.series.buffer, rows.at.buffer, rows.value.buffer]);
    });
  }

  /** Ends the worker after the writes posted so far. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    if (worker === undefined) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ close: true } satisfies HistoryWriteRequest);
    });
  }

  #start(): Worker {
    const worker = startModuleWorker(import.meta.url, 'history-write-worker', {
      workerData: { file: this.#options.file },
    });
    this.#worker = worker;
    worker.on('message', (reply: HistoryWriteReply) => {
      const waiting = this.#waiting.get(reply.id);
      if (waiting === undefined) return;
      this.#waiting.delete(reply.id);
      if (reply.error === undefined) waiting.resolve();
      else waiting.reject(new Error(`device history not written: ${reply.error}`));
    });
    worker.on('error', (error) => this.#gone(worker, `device history thread failed: ${error.message}`));
    worker.on('exit', (code) => this.#gone(worker, `device history thread exited with code ${code}`));
    return worker;
  }

  /** Fails the writes in flight of a worker that ended; the next write starts another. */
  #gone(worker: Worker, reason: string): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#waiting.size === 0 && this.#closed) return;
    if (!this.#closed) this.#options.log.warn({ writes: this.#waiting.size }, reason);
    for (const waiting of this.#waiting.values()) waiting.reject(new Error(reason));
    this.#waiting.clear();
  }
}
