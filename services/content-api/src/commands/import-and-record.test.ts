import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { toJsonLinesRecord } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import { importAndRecord, type ImportRunRecorder } from './import-and-record.js';
import { ImportModeError } from './resolve-import-mode.js';

const catalog = generateCatalog({ articles: 12, seed: TEST_SEED });
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lines = [...catalog.articles()].filter((a) => a.shopId === 'labtools').map(toJsonLinesRecord);
/** A store that cannot record (locked, closed): every call rejects. */
const failing: ImportRunRecorder = { record: () => Promise.reject(new Error('database is locked')) };

describeEachDatabase<ContentTables>('importAndRecord', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 12);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps a committed import when its run cannot be recorded, and says why', async () => {
    const before = await backend.currentHash();
    const { result, run, recordError } = await importAndRecord(backend, failing, Readable.from(lines.join('\n')), {
      format: 'jsonl',
      shop: labtools,
      fileName: 'ok.jsonl',
    });
    expect(result.committed).toBe(true);
    expect(run).toBeUndefined();
    expect(recordError?.message).toBe('database is locked');
    expect(await backend.currentHash()).not.toBe(before);
  });

  it("throws the import's own error when neither the import nor its record could be made", async () => {
    await expect(
      importAndRecord(backend, failing, Readable.from(lines.join('\n')), {
        format: 'jsonl',
        mode: 'prices',
        shop: labtools,
        fileName: 'prices.jsonl',
      }),
    ).rejects.toBeInstanceOf(ImportModeError);
  });
});
