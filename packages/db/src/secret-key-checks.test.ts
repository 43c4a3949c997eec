import { beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from './migrate-to-latest.js';
import { SecretKeyCheckTable, secretKeyCheckMigration } from './secret-key-checks.js';
import { describeEachDatabase } from './testing.js';

describeEachDatabase('SecretKeyCheckTable', (getDb) => {
  beforeAll(async () => {
    await migrateToLatest(getDb(), {
      migrations: { '0001_checks': secretKeyCheckMigration('svc_secret_key_checks') },
      tableName: 'svc_migrations',
    });
  });

  it('records the first value per purpose, keeps it against a later one, and replaces it on request', async () => {
    const table = new SecretKeyCheckTable(getDb(), 'svc_secret_key_checks');
    expect(await table.read('cookie')).toBeUndefined();
    expect(await table.recordIfAbsent('cookie', 'aaaa')).toBe('aaaa');
    // Another instance with another key records nothing: it learns the earlier value.
    expect(await table.recordIfAbsent('cookie', 'bbbb')).toBe('aaaa');
    expect(await table.read('cookie')).toBe('aaaa');
    expect(await table.recordIfAbsent('device', 'cccc')).toBe('cccc');
    await table.replace('cookie', 'dddd');
    expect(await table.read('cookie')).toBe('dddd');
    expect(await table.read('device')).toBe('cccc');
  });

  it('takes plain table names only', () => {
    expect(() => new SecretKeyCheckTable(getDb(), 'x; drop table y')).toThrow(RangeError);
    expect(() => secretKeyCheckMigration('"quoted"')).toThrow(RangeError);
  });
});
