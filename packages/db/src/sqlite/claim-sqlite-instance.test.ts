import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseError } from '../errors.js';
import { openServiceDatabase } from '../open-service-database.js';
import { claimSqliteInstance } from './claim-sqlite-instance.js';

describe('claimSqliteInstance', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const fileIn = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-claim-'));
    dirs.push(dir);
    return path.join(dir, 'svc.sqlite');
  };

  it('refuses a second claim, naming the holder and PostgreSQL, until the first is released', async () => {
    const file = await fileIn();
    const first = await claimSqliteInstance(file, 'the template service');
    expect((await stat(first.file)).mode & 0o777).toBe(0o600);
    const second = claimSqliteInstance(file, 'the template service');
    await expect(second).rejects.toBeInstanceOf(DatabaseError);
    await expect(second).rejects.toMatchObject({ code: 'DB_ERR_SQLITE_IN_USE' });
    await expect(second).rejects.toThrow(new RegExp(`pid ${process.pid} on .*DATABASE_URL`));
    await first.release();
    const again = await claimSqliteInstance(file, 'the template service');
    await again.release();
    await again.release();
  });

  it('takes over the claim of a process that is gone, but not one of another host', async () => {
    const file = await fileIn();
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(exited.stdout);
    const record = { service: 'old', pid: deadPid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' };
    await writeFile(`${file}.instance`, JSON.stringify(record));
    const claim = await claimSqliteInstance(file, 'new');
    expect(JSON.parse(await readFile(claim.file, 'utf8'))).toMatchObject({ service: 'new', pid: process.pid });
    await claim.release();

    await writeFile(`${file}.instance`, JSON.stringify({ ...record, host: 'some-other-host' }));
    await expect(claimSqliteInstance(file, 'new')).rejects.toThrow(/on some-other-host.*deleting/s);
  });

  it('is what openServiceDatabase does for a service on SQLite, and the claim ends with close', async () => {
    const file = await fileIn();
    const options = {
      dataDir: path.dirname(file),
      sqliteFile: path.basename(file),
      migrations: {},
      tableName: 'claim_migrations',
      singleInstance: 'the test service',
    };
    const first = await openServiceDatabase(options);
    await expect(openServiceDatabase(options)).rejects.toMatchObject({ code: 'DB_ERR_SQLITE_IN_USE' });
    // A command-line tool opens the same file beside the service.
    const { singleInstance: _tool, ...tool } = options;
    const beside = await openServiceDatabase(tool);
    await beside.close();
    await first.close();
    const next = await openServiceDatabase(options);
    await next.close();
  });
});
