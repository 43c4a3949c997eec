import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Database } from './database.js';
import { DatabaseError } from './errors.js';
import { openServiceDatabase } from './open-service-database.js';

describe('openServiceDatabase', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-db-'));
    dirs.push(dir);
    return path.join(dir, 'nested');
  };
  const migrations = {
    '0001_things': {
      async up(db: Kysely<unknown>) {
        await db.schema.createTable('things').addColumn('id', 'integer').execute();
      },
    },
  };

  it('opens <dataDir>/<file> (creating the directory), migrates it and logs what was applied', async () => {
    const dir = await dataDir();
    const lines: [object, string][] = [];
    const log = {
      info: (o: object, m: string) => lines.push([o, m]),
      warn: (o: object, m: string) => lines.push([o, m]),
    };
    const database = await openServiceDatabase({
      dataDir: dir,
      sqliteFile: 'svc.sqlite',
      migrations,
      tableName: 'svc_migrations',
      log,
    });
    try {
      expect(database.location).toBe(path.join(dir, 'svc.sqlite'));
      await sql`insert into things (id) values (1)`.execute(database.db);
      expect(lines).toEqual([[{ database: path.join(dir, 'svc.sqlite'), applied: ['0001_things'] }, 'database ready']]);
    } finally {
      await database.close();
    }
  });

  it('starts on a database a newer release migrated, warning that it runs one version behind', async () => {
    const dir = await dataDir();
    const newer = { ...migrations, '0002_more': { up: () => Promise.resolve() } };
    const options = { dataDir: dir, sqliteFile: 'svc.sqlite', tableName: 'svc_migrations' };
    await (await openServiceDatabase({ ...options, migrations: newer })).close();
    const warnings: [object, string][] = [];
    const log = { info: () => {}, warn: (o: object, m: string) => warnings.push([o, m]) };
    const database = await openServiceDatabase({ ...options, migrations, log });
    try {
      await sql`insert into things (id) values (1)`.execute(database.db);
      expect(warnings).toEqual([
        [
          { database: path.join(dir, 'svc.sqlite'), newer: ['0002_more'] },
          'the database was migrated by a newer release; this one runs on it until it is upgraded too',
        ],
      ]);
    } finally {
      await database.close();
    }
  });

  it('creates the data directory 0700 and the SQLite files 0600, and narrows an existing file to 0600', async () => {
    const dir = await dataDir();
    const database = await openServiceDatabase({ dataDir: dir, sqliteFile: 'svc.sqlite', migrations, tableName: 'm' });
    try {
      await sql`insert into things (id) values (1)`.execute(database.db);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      const files = (await readdir(dir)).sort();
      expect(files).toEqual(['svc.sqlite', 'svc.sqlite-shm', 'svc.sqlite-wal']);
      for (const file of files) expect([file, (await stat(path.join(dir, file))).mode & 0o777]).toEqual([file, 0o600]);
    } finally {
      await database.close();
    }
    const loose = path.join(dir, 'loose.sqlite');
    await writeFile(loose, '');
    await chmod(loose, 0o644);
    const again = await openServiceDatabase({ dataDir: dir, sqliteFile: 'loose.sqlite', migrations, tableName: 'm' });
    await again.close();
    expect((await stat(loose)).mode & 0o777).toBe(0o600);
  });

  it('resolves to a Database of the table map it is given, queried without casts', async () => {
    interface Tables {
      things: { id: number };
    }
    const database = await openServiceDatabase<Tables>({
      dataDir: await dataDir(),
      sqliteFile: 'typed.sqlite',
      migrations: (opened) => {
        expectTypeOf(opened).toEqualTypeOf<Database<Tables>>();
        return migrations;
      },
      tableName: 'typed_migrations',
    });
    try {
      expectTypeOf(database).toEqualTypeOf<Database<Tables>>();
      await database.db.insertInto('things').values({ id: 7 }).execute();
      const rows = await database.db.selectFrom('things').select('id').execute();
      expect(rows.map((r) => r.id + 1)).toEqual([8]);
    } finally {
      await database.close();
    }
  });

  it('closes the database and rethrows when a migration fails', async () => {
    const broken = {
      '0001_broken': { up: async (db: Kysely<unknown>) => void (await sql`create tabel nope`.execute(db)) },
    };
    await expect(
      openServiceDatabase({
        dataDir: await dataDir(),
        sqliteFile: 'x.sqlite',
        migrations: broken,
        tableName: 'x_migrations',
      }),
    ).rejects.toBeInstanceOf(DatabaseError);
  });
});
