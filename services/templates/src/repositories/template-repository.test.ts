import { beforeAll, beforeEach, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import { clearTemplates } from '../test-support/templates-test-app.js';
import { TemplateExistsError, TemplateRepository } from './template-repository.js';
import type { NewTemplateRecord } from '../model/template-record.js';
import type { TemplatesDatabase } from './templates-tables.js';

function record(
  templateId: string,
  templateVersion: string,
  originTypes: string[] = ['svc-ds-drv-snmp'],
): NewTemplateRecord {
  return {
    templateId,
    templateVersion,
    description: `${templateId} ${templateVersion}`,
    alias: null,
    schemaVersion: null,
    origin: 'x',
    originTypes,
    rangerFilter: null,
    sourceFormat: 'json',
    sourceText: '{}',
    documentJson: '{}',
  };
}

describeEachDatabase<TemplatesDatabase>('TemplateRepository', (getDb) => {
  let repository: TemplateRepository;
  beforeAll(async () => {
    await migrateToLatest(getDb(), { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    let tick = 0;
    repository = new TemplateRepository(getDb(), () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++)));
  });
  beforeEach(async () => {
    await clearTemplates(getDb());
  });

  it('keeps ranks consistent when versions of one id are written concurrently', async () => {
    const versions = ['1.0.0', '3.0.0', '2.0.0', '2.5.0-beta', '0.1.0', '10.0.0'];
    await Promise.all(versions.map((v) => repository.save(record('Busy', v), 'create')));
    const stored = await repository.listVersions('Busy');
    expect(stored.map((s) => s.templateVersion)).toEqual(['10.0.0', '3.0.0', '2.5.0-beta', '2.0.0', '1.0.0', '0.1.0']);
    expect(stored.map((s) => s.versionRank)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('lets exactly one of two concurrent creates of a new version win', async () => {
    const results = await Promise.allSettled([
      repository.save(record('Race', '1.0.0'), 'create'),
      repository.save(record('Race', '1.0.0'), 'create'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(TemplateExistsError);
  });

  it('replaces origin types on upsert and keeps createdAt', async () => {
    const first = await repository.save(record('Swap', '1.0.0', ['a-drv']), 'create');
    const second = await repository.save(record('Swap', '1.0.0', ['b-drv']), 'upsert');
    expect(second.created).toBe(false);
    expect(second.summary.createdAt).toBe(first.summary.createdAt);
    expect(second.summary.updatedAt > first.summary.updatedAt).toBe(true);
    expect((await repository.list({ originType: 'a-drv', limit: 10, offset: 0 })).total).toBe(0);
    expect((await repository.list({ originType: 'b-drv', limit: 10, offset: 0 })).total).toBe(1);
  });

  it('takes LIKE wildcards in a text filter literally', async () => {
    await repository.save({ ...record('Percent', '1.0.0'), description: '100% uptime' }, 'create');
    await repository.save({ ...record('Other', '1.0.0'), description: '1000 uptime' }, 'create');
    const page = await repository.list({ text: '0%', limit: 10, offset: 0 });
    expect(page.items.map((i) => i.templateId)).toEqual(['Percent']);
  });

  it('forgets an id once its last version is deleted', async () => {
    await repository.save(record('Gone', '1.0.0'), 'create');
    expect(await repository.deleteVersion('Gone', '1.0.0')).toBe(true);
    const ids = await getDb().db.selectFrom('template_ids').select('template_id').execute();
    expect(ids).toEqual([]);
    expect(await repository.deleteVersion('Gone', '1.0.0')).toBe(false);
  });
});
