import { describe, expect, it } from 'vitest';
import type { PointRequest, TableRequest } from '../../driver.js';
import { resolveColumns, withIndexCells } from './table-reads.js';

function column(datapointId: string, originAddress: string, dataType: PointRequest['dataType'] = 'LONG') {
  return {
    datapointSetId: 't',
    datapointId,
    originAddress,
    originDataType: 'INTEGER',
    dataType,
    receiveMode: 'polling',
    pollingGroup: '5s',
  } satisfies PointRequest;
}

function table(rootAddress: string, columns: PointRequest[], indexes: string[] = []): TableRequest {
  return { datapointSetId: 't', rootAddress, indexes, dynamic: true, columns };
}

describe('SNMP table columns', () => {
  it('takes full column OIDs as they are and column numbers within the entry rootAddress.1', () => {
    const resolved = resolveColumns(
      table('1.3.6.1.2.1.2.2', [column('descr', '2'), column('index', '.1.3.6.1.2.1.2.2.1.1'), column('x', 'abc')]),
    );
    expect(resolved.map((c) => c.oid)).toEqual(['1.3.6.1.2.1.2.2.1.2', '1.3.6.1.2.1.2.2.1.1', undefined]);
  });

  it('accepts the entry as rootAddress when a full column OID shows where the entry is', () => {
    const resolved = resolveColumns(
      table('1.3.6.1.2.1.2.2.1', [column('index', '1.3.6.1.2.1.2.2.1.1'), column('d', '2')]),
    );
    expect(resolved.map((c) => c.oid)).toEqual(['1.3.6.1.2.1.2.2.1.1', '1.3.6.1.2.1.2.2.1.2']);
  });

  it('names no column for a column number without a rootAddress', () => {
    expect(resolveColumns(table('', [column('d', '2')]))[0]?.oid).toBeUndefined();
  });
});

describe('SNMP table row keys', () => {
  const cells = [{ datapointId: 'descr', rawValue: 'lo', quality: 'good' }];

  it('fills a missing single index from the whole OID suffix, a number when it is one component', () => {
    const set = { indexes: ['index'], columns: [] };
    expect(withIndexCells(set, cells, '3', 1)).toContainEqual({
      datapointId: 'index',
      rawValue: 3,
      quality: 'good',
      timestamp: 1,
    });
    expect(withIndexCells(set, cells, '4.116.101.115.116', 1).at(-1)?.rawValue).toBe('4.116.101.115.116');
  });

  it('keeps an index the agent gave, and replaces one it could not read', () => {
    const set = { indexes: ['index'], columns: [column('index', '1')] };
    const read = [...cells, { datapointId: 'index', rawValue: 7, quality: 'good' }];
    expect(withIndexCells(set, read, '7', 1)).toBe(read);
    const unread = [...cells, { datapointId: 'index', rawValue: null, quality: 'bad' }];
    expect(withIndexCells(set, unread, '7', 1)).toEqual([
      cells[0],
      { datapointId: 'index', rawValue: 7, quality: 'good', timestamp: 1 },
    ]);
  });

  it('splits the suffix over several indexes so that their joined key is the suffix', () => {
    const set = { indexes: ['ifIndex', 'address'], columns: [column('address', '3', 'STRING')] };
    const filled = withIndexCells(set, [], '2.127.0.0.1', 1);
    expect(filled.map((c) => [c.datapointId, c.rawValue])).toEqual([
      ['ifIndex', 2],
      ['address', '127.0.0.1'],
    ]);
  });

  it('leaves rows of a set without indexes as they are (the pipeline keys them by position)', () => {
    expect(withIndexCells({ indexes: [], columns: [] }, cells, '1', 1)).toBe(cells);
  });
});
