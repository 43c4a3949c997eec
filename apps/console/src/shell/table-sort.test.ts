import { describe, expect, it } from 'vitest';
import { compareSortValues, nextSort, sortRows } from './table-sort.js';

describe('compareSortValues', () => {
  it('orders numbers by size and text with its digits as numbers', () => {
    expect([10, 2, 33].sort(compareSortValues)).toEqual([2, 10, 33]);
    expect(['node10@b', 'node2@b', 'Alpha'].sort(compareSortValues)).toEqual(['Alpha', 'node2@b', 'node10@b']);
  });

  it('puts missing values after present ones', () => {
    expect([null, 3, undefined, 1].sort(compareSortValues)).toEqual([1, 3, null, undefined]);
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'b', uptime: 5 },
    { name: 'a', uptime: null },
    { name: 'c', uptime: 5 },
    { name: 'd', uptime: 1 },
  ];

  it('sorts either way, keeps equal rows in their order and missing values last', () => {
    expect(sortRows(rows, (r) => r.uptime, 'ascending').map((r) => r.name)).toEqual(['d', 'b', 'c', 'a']);
    expect(sortRows(rows, (r) => r.uptime, 'descending').map((r) => r.name)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('leaves the given array as it was', () => {
    sortRows(rows, (r) => r.name, 'descending');
    expect(rows.map((r) => r.name)).toEqual(['b', 'a', 'c', 'd']);
  });
});

describe('nextSort', () => {
  it('starts a newly picked column at its first direction and turns the sorted one round', () => {
    expect(nextSort(undefined, 'name')).toEqual({ column: 'name', direction: 'ascending' });
    expect(nextSort({ column: 'name', direction: 'ascending' }, 'when', 'descending')).toEqual({
      column: 'when',
      direction: 'descending',
    });
    expect(nextSort({ column: 'when', direction: 'descending' }, 'when', 'descending')).toEqual({
      column: 'when',
      direction: 'ascending',
    });
  });
});
