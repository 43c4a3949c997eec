import { beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from '../migrations/index.js';
import type { NewImportRun } from '../model/import-run.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { IMPORT_RUNS_KEPT, ImportRunRepository, REFUSED_RECORDS_KEPT } from './import-run-repository.js';
import { WARNINGS_KEPT } from '../model/import-run.js';

const run = (shopId: string, fileName: string, startedAt: number): NewImportRun => ({
  shopId,
  fileName,
  format: 'jsonl',
  mode: 'upsert',
  startedAt,
  finishedAt: startedAt + 1500,
  outcome: 'committed',
  refusal: null,
  counts: { records: 3, imported: 3, added: 2, updated: 1, deleted: 0, alreadyAbsent: 0, refused: 0 },
  refusedRecords: [],
  warnings: [],
  decisions: null,
  catalog: null,
});

describeEachDatabase<ContentTables>('ImportRunRepository', (getDb) => {
  let runs: ImportRunRepository;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    runs = storage.importRuns;
  });

  it('lists a shop’s runs newest first with every field as recorded, apart from other shops', async () => {
    const first = await runs.record(run('alpha', 'a.jsonl', 1_700_000_000_000));
    await runs.record(run('beta', 'b.jsonl', 1_700_000_000_500));
    // Started at the same millisecond: the order recorded still decides.
    const second = await runs.record({
      ...run('alpha', 'c.xml', 1_700_000_000_000),
      format: 'bmecat',
      mode: 'replace',
      outcome: 'refused',
      refusal: '2 of 2 records refused',
      counts: { records: 2, imported: 0, added: null, updated: null, deleted: 0, alreadyAbsent: 0, refused: 2 },
      refusedRecords: [
        { line: 3, reason: '/price: must be a decimal' },
        { line: 9, reason: 'not JSON' },
      ],
      warnings: [
        {
          kind: 'unkept-element',
          path: 'ARTICLE/ARTICLE_DETAILS/SEGMENT',
          count: 2,
          line: 14,
          message: 'SEGMENT (2 times) is not imported: Triad does not keep this element',
        },
      ],
      decisions: { defaultTaxUsed: 2, priceTypesUsed: { net_list: 1, gros_list: 1 } },
      catalog: { catalogId: 'WB-2024', catalogVersion: '7.2', supplierName: 'Wälzlager & Söhne' },
    });
    expect([first.runNo, second.runNo]).toEqual([1, 2]);
    const listed = await runs.list('alpha');
    expect(listed).toEqual([second, first]);
    expect(listed[0]?.counts.added).toBeNull();
    expect(listed[1]?.finishedAt).toBe(1_700_000_001_500);
    expect(listed[0]?.warnings.map((w) => [w.path, w.count, w.line])).toEqual([
      ['ARTICLE/ARTICLE_DETAILS/SEGMENT', 2, 14],
    ]);
    expect(listed[1]?.warnings).toEqual([]);
    expect(listed.map((r) => r.decisions)).toEqual([
      { defaultTaxUsed: 2, priceTypesUsed: { net_list: 1, gros_list: 1 } },
      null,
    ]);
    expect(listed.map((r) => r.catalog)).toEqual([
      { catalogId: 'WB-2024', catalogVersion: '7.2', supplierName: 'Wälzlager & Söhne' },
      null,
    ]);
    expect((await runs.list('beta')).map((r) => r.fileName)).toEqual(['b.jsonl']);
    expect(await runs.list('nobody')).toEqual([]);
  });

  it(`keeps a shop's newest ${IMPORT_RUNS_KEPT} runs, each with ${REFUSED_RECORDS_KEPT} refused records`, async () => {
    const many = Array.from({ length: REFUSED_RECORDS_KEPT + 20 }, (_, i) => ({ line: i + 1, reason: 'bad' }));
    for (let i = 0; i < IMPORT_RUNS_KEPT + 3; i += 1)
      await runs.record({ ...run('gamma', `g-${i}.jsonl`, 1_700_000_000_000 + i), refusedRecords: many });
    const kept = await runs.list('gamma');
    expect(kept).toHaveLength(IMPORT_RUNS_KEPT);
    expect(kept[0]?.fileName).toBe(`g-${IMPORT_RUNS_KEPT + 2}.jsonl`);
    expect(kept.at(-1)?.fileName).toBe('g-3.jsonl');
    expect(kept[0]?.refusedRecords).toHaveLength(REFUSED_RECORDS_KEPT);
    expect(kept[0]?.refusedRecords.at(-1)).toEqual({ line: REFUSED_RECORDS_KEPT, reason: 'bad' });
    // Other shops keep theirs.
    expect(await runs.list('alpha')).toHaveLength(2);
  });

  it(`keeps a run's first ${WARNINGS_KEPT} warnings`, async () => {
    const warnings = Array.from({ length: WARNINGS_KEPT + 5 }, (_, i) => ({
      kind: 'unkept-element',
      path: `ARTICLE/X${i}`,
      count: 1,
      line: i + 1,
      message: 'not kept',
    }));
    await runs.record({ ...run('epsilon', 'w.xml', 1_700_000_000_000), warnings });
    const [kept] = await runs.list('epsilon');
    expect(kept?.warnings).toHaveLength(WARNINGS_KEPT);
    expect(kept?.warnings.at(-1)?.path).toBe(`ARTICLE/X${WARNINGS_KEPT - 1}`);
  });

  it('keeps as many runs as asked per shop', async () => {
    const few = new ImportRunRepository(getDb(), { runsKept: 2 });
    for (const name of ['d1', 'd2', 'd3']) await few.record(run('delta', name, 1_700_000_000_000));
    expect((await few.list('delta')).map((r) => [r.runNo, r.fileName])).toEqual([
      [3, 'd3'],
      [2, 'd2'],
    ]);
  });
});
