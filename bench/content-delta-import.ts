/**
 * Child process of the content API benchmark: imports one BMEcat update file into an existing
 * store, as `triad catalog import` beside the running service would, and prints
 * `{"seconds", "committed", "mode", "imported", "deleted"}` (the import alone, without start-up).
 *
 *   node --conditions=source --import tsx bench/content-delta-import.ts '<json>'
 *
 * where `<json>` is `{"db": <openDatabase options>, "file": "<path>", "shopId": "<id>"}`.
 */
import { createReadStream } from 'node:fs';
import { openDatabase, type OpenDatabaseOptions } from '@triad/db';
import { CATALOG_READ_BYTES, contentStorageFor, importCatalog, type ContentTables } from '@triad/content-api-service';

const spec = JSON.parse(process.argv[2] ?? '{}') as { db: OpenDatabaseOptions; file: string; shopId: string };
const database = openDatabase<ContentTables>(spec.db);
const { backend } = contentStorageFor(database);
try {
  const shop = await backend.findShop(spec.shopId);
  if (!shop) throw new Error(`no shop ${spec.shopId} in the store`);
  const start = process.hrtime.bigint();
  const result = await importCatalog(backend, createReadStream(spec.file, { highWaterMark: CATALOG_READ_BYTES }), {
    format: 'bmecat',
    shop,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { committed, mode, imported } = result;
  console.log(JSON.stringify({ seconds, committed, mode, imported, deleted: result.committed ? result.deleted : 0 }));
} finally {
  await backend.close();
  await database.close();
}
