/**
 * The worker of `HistoryWriteThread`: its own connection to the service's SQLite file (already
 * migrated by the main thread), writing each posted batch with `DeviceHistoryRepository.writeRows`
 * in one transaction and answering with its id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase } from '@triad/db';
import { DeviceHistoryRepository, type HistoryRows } from './device-history-repository.js';
import type { TemplatesDatabase } from './templates-tables.js';

export type HistoryWriteRequest = { readonly id: number; readonly rows: HistoryRows } | { readonly close: true };
export interface HistoryWriteReply {
  readonly id: number;
  /** Why the batch was not written; absent when it was. */
  readonly error?: string;
}

/**
 * Page cache of the writer's connection, KiB: the last page of every series' raw, minute and hour
 * rows is written by every batch (about 12 MiB at 1,000 devices of 3 values, SQLite's default 2).
 */
const WRITER_CACHE_KIB = 65_536;

const port = parentPort;
if (port !== null) {
  const { file } = workerData as { file: string };
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: file });
  await sql.raw(`pragma cache_size = -${WRITER_CACHE_KIB}`).execute(database.db);
  const repository = new DeviceHistoryRepository(database);
  // One batch at a time, in the order posted.
  let queue = Promise.resolve();
  port.on('message', (request: HistoryWriteRequest) => {
    queue = queue.then(async () => {
      if ('close' in request) {
        await database.close();
        port.close();
        return;
      }
      try {
        await repository.writeRows(request.rows);
        port.postMessage({ id: request.id } satisfies HistoryWriteReply);
      } catch (error) {
        port.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies HistoryWriteReply);
      }
    });
  });
}
