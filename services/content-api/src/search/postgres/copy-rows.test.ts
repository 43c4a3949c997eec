import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describePostgresOnly } from '@triad/db/testing';
import type { ContentTables } from '../../migrations/content-tables.js';
import { binaryCopyRows, copyRowsOut } from './copy-rows.js';

describePostgresOnly<ContentTables>('COPY out in binary format', (getDb) => {
  it('gives each field its bytes: every byte value of a bytea, integers big-endian, nulls', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    // Large enough to come in several protocol messages and TOASTed on the server.
    const large = Buffer.alloc(300_000);
    for (let i = 0; i < large.length; i += 1) large[i] = (i * 7919) % 251;
    await getDb()
      .db.transaction()
      .execute(async (trx) => {
        await sql`create temporary table copy_out_test (n integer, b bytea) on commit drop`.execute(trx);
        const empty = Buffer.alloc(0);
        await sql`insert into copy_out_test values (1, ${all}), (2, null), (-3, ${large}), (4, ${empty})`.execute(trx);
        const rows = await copyRowsOut(trx, 'select n, b from copy_out_test order by n');
        expect(rows.map(([n]) => n!.readInt32BE(0))).toEqual([-3, 1, 2, 4]);
        expect(rows.map(([, b]) => b)).toEqual([large, all, null, Buffer.alloc(0)]);
        await expect(copyRowsOut(trx, 'select no_such_column from copy_out_test')).rejects.toThrow(/no_such_column/);
      });
  });

  it('refuses what is not its binary format', () => {
    expect(() => binaryCopyRows(Buffer.from('1\t\\\\x00\n'))).toThrow(/binary format/);
  });
});
