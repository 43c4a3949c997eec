import { describe, expect, it } from 'vitest';
import { createTemplateEvaluator } from './template-evaluator.js';
import {
  calc,
  eventSummary,
  evaluation,
  read,
  steppingClock,
  table,
  template,
  valueSummary,
} from './test-support/template-builders.js';
import type { Datapoint } from '../generated/device-template.generated.js';

const columns = (extra: Datapoint[] = []): Datapoint[] => [
  read('ifIndex'),
  read('ifName'),
  read('ifOperStatus', {
    valueMapConfig: {
      map: [
        { key: 1, value: 'up' },
        { key: 2, value: 'down' },
      ],
    },
    alertConfig: { evaluations: [evaluation(401, "datapoint.value === 'down'")] },
  }),
  ...extra,
];
const evaluator = (type: 'tableStatic' | 'tableDynamic', extra: Datapoint[] = [], indexes = ['ifIndex']) =>
  createTemplateEvaluator(template(table('ifTable', type, indexes, columns(extra))), { now: steppingClock() });
const cell = (datapointId: string, rawValue: unknown) => ({ datapointId, rawValue });
const row = (ifIndex: number, status: number, name = `eth${ifIndex}`) => [
  cell('ifIndex', ifIndex),
  cell('ifName', name),
  cell('ifOperStatus', status),
];
const bulk = (...rows: ReturnType<typeof row>[]) => ({ datapointSetId: 'ifTable', rows });
const single = (tableIndex: number | string, datapointId: string, rawValue: unknown) => ({
  datapointSetId: 'ifTable',
  datapointId,
  tableIndex,
  rawValue,
});
const rowsOf = (e: ReturnType<typeof evaluator>) => e.snapshot()[0]!.rows.map((r) => r.tableIndex);

describe('table rows from single updates', () => {
  it('keeps one row per tableIndex, numbers and their text naming the same row', () => {
    const e = evaluator('tableDynamic');
    expect(valueSummary(e.update(single(3, 'ifOperStatus', 1)))).toEqual(['ifOperStatus[3]="up"']);
    e.update(single('3', 'ifName', 'eth3'));
    e.update(single(4, 'ifName', 'eth4'));
    expect(rowsOf(e)).toEqual([3, 4]);
    expect(e.snapshot()[0]!.rows[0]!.values).toMatchObject({
      ifOperStatus: { value: 'up' },
      ifName: { value: 'eth3' },
    });
  });

  it('puts an update without tableIndex in row 0', () => {
    const e = evaluator('tableDynamic');
    expect(e.update({ datapointSetId: 'ifTable', datapointId: 'ifName', rawValue: 'lo' }).values[0]).toMatchObject({
      tableIndex: 0,
    });
  });

  it('evaluates alarms per row', () => {
    const e = evaluator('tableDynamic');
    expect(eventSummary(e.update(single(1, 'ifOperStatus', 2)))).toEqual(['alarm-raised 401 ifOperStatus[1]']);
    expect(eventSummary(e.update(single(2, 'ifOperStatus', 2)))).toEqual(['alarm-raised 401 ifOperStatus[2]']);
    expect(eventSummary(e.update(single(1, 'ifOperStatus', 1)))).toEqual(['alarm-cleared 401 ifOperStatus[1]']);
  });
});

describe('tableDynamic', () => {
  it('keys bulk rows by their index datapoints and drops rows a later bulk update leaves out', () => {
    const e = evaluator('tableDynamic');
    const first = e.update(bulk(row(1, 1), row(2, 2), row(7, 1)));
    expect(valueSummary(first)).toContain('ifName[7]="eth7"');
    expect(eventSummary(first)).toEqual(['alarm-raised 401 ifOperStatus[2]']);
    const second = e.update(bulk(row(1, 1), row(9, 1)));
    expect(rowsOf(e)).toEqual([1, 9]);
    // Row 2 went while its alarm was raised: the alarm clears, with the reason.
    expect(eventSummary(second)).toEqual(['alarm-cleared 401 ifOperStatus[2]']);
    expect(second.events[0]).toMatchObject({ reason: 'row-removed', tableIndex: 2 });
    expect(second.events[0]).not.toHaveProperty('value');
  });

  it('removes one row on an explicit removal and clears its alarms', () => {
    const e = evaluator('tableDynamic');
    e.update(bulk(row(1, 2), row(2, 1)));
    const out = e.update({ datapointSetId: 'ifTable', tableIndex: 1, removed: true });
    expect(eventSummary(out)).toEqual(['alarm-cleared 401 ifOperStatus[1]']);
    expect(rowsOf(e)).toEqual([2]);
    expect(eventSummary(e.update({ datapointSetId: 'ifTable', tableIndex: 1, removed: true }))).toEqual([
      'update-rejected DT_ERR_PIPE_UPDATE_ROW_UNKNOWN',
    ]);
  });

  it('treats a row that comes back as new: its alarms start up again', () => {
    const e = evaluator('tableDynamic');
    e.update(bulk(row(1, 2)));
    e.update(bulk());
    expect(rowsOf(e)).toEqual([]);
    expect(eventSummary(e.update(bulk(row(1, 2))))).toEqual(['alarm-raised 401 ifOperStatus[1]']);
  });

  it('joins several index values with dots and falls back to the position without them', () => {
    const e = evaluator('tableDynamic', [], ['ifIndex', 'ifName']);
    e.update(bulk(row(1, 1, 'a'), [cell('ifName', 'b'), cell('ifOperStatus', 1)]));
    expect(rowsOf(e)).toEqual(['1.a', 1]);
  });

  it('rejects cells naming unknown or calculated datapoints and keeps the rest of the row', () => {
    const e = evaluator('tableDynamic', [
      calc('label', "datapoints.ifName.value + ':' + datapoints.ifOperStatus.value"),
    ]);
    const out = e.update(bulk([...row(1, 1), cell('nope', 1), cell('label', 'x')]));
    expect(eventSummary(out)).toEqual([
      'update-rejected DT_ERR_PIPE_UPDATE_DATAPOINT_UNKNOWN',
      'update-rejected DT_ERR_PIPE_UPDATE_CALCULATED',
    ]);
    expect(valueSummary(out)).toEqual([
      'ifIndex[1]=1',
      'ifName[1]="eth1"',
      'ifOperStatus[1]="up"',
      'label[1]="eth1:up"',
    ]);
  });
});

describe('tableStatic', () => {
  it('fixes its rows at the first bulk update and rejects rows it has not seen', () => {
    const e = evaluator('tableStatic');
    e.update(bulk(row(1, 1), row(2, 1)));
    const later = e.update(bulk(row(1, 2), row(3, 1)));
    expect(eventSummary(later)).toEqual([
      'alarm-raised 401 ifOperStatus[1]',
      'update-rejected DT_ERR_PIPE_UPDATE_ROW_UNKNOWN',
    ]);
    // Row 2, absent from the second update, stays.
    expect(rowsOf(e)).toEqual([1, 2]);
    expect(eventSummary(e.update(single(5, 'ifName', 'x')))).toEqual([
      'update-rejected DT_ERR_PIPE_UPDATE_ROW_UNKNOWN',
    ]);
  });

  it('accepts new rows from single updates until the first bulk update', () => {
    const e = evaluator('tableStatic');
    e.update(single(4, 'ifName', 'eth4'));
    e.update(bulk(row(1, 1)));
    expect(rowsOf(e)).toEqual([4, 1]);
  });

  it('refuses to remove a row', () => {
    const e = evaluator('tableStatic');
    e.update(bulk(row(1, 1)));
    expect(eventSummary(e.update({ datapointSetId: 'ifTable', tableIndex: 1, removed: true }))).toEqual([
      'update-rejected DT_ERR_PIPE_UPDATE_ROW_STATIC',
    ]);
  });
});

describe('row filters', () => {
  const filtered = () =>
    evaluator('tableDynamic', [
      read('ifType', {
        rowFilterConfig: {
          expressions: [{ symbol: 'ethernet', expression: 'datapoint.value === 6' }],
          logic: 'ethernet',
        },
      }),
    ]);

  it('hide rows whose filter is false from the values, and show the whole row when it turns true', () => {
    const e = filtered();
    const hidden = e.update(bulk([...row(1, 1), cell('ifType', 24)]));
    expect(hidden.values).toEqual([]);
    expect(e.snapshot()[0]!.rows[0]!.visible).toBe(false);
    expect(valueSummary(e.update(single(1, 'ifName', 'lo0')))).toEqual([]);
    const shown = e.update(single(1, 'ifType', 6));
    expect(valueSummary(shown)).toEqual(['ifIndex[1]=1', 'ifName[1]="lo0"', 'ifOperStatus[1]="up"', 'ifType[1]=6']);
    expect(valueSummary(e.update(single(1, 'ifName', 'eth1')))).toEqual(['ifName[1]="eth1"']);
  });

  it('do not stop alerts of hidden rows', () => {
    const e = filtered();
    const out = e.update(bulk([...row(1, 2), cell('ifType', 24)]));
    expect(out.values).toEqual([]);
    expect(eventSummary(out)).toEqual(['alarm-raised 401 ifOperStatus[1]']);
  });

  it('keep the previous result when the filter expression fails', () => {
    const e = evaluator('tableDynamic', [
      read('ifType', {
        rowFilterConfig: {
          expressions: [{ symbol: 'eth', expression: "datapoint.value.startsWith('eth')" }],
          logic: 'eth',
        },
      }),
    ]);
    expect(valueSummary(e.update(single(1, 'ifType', 'ethernetCsmacd')))).toEqual(['ifType[1]="ethernetCsmacd"']);
    const out = e.update(single(1, 'ifType', 6));
    expect(eventSummary(out)).toEqual(['evaluation-error row-filter DT_ERR_EVAL_METHOD_RECEIVER ifType']);
    expect(valueSummary(out)).toEqual(['ifType[1]=6']);
  });

  it('require every expression when logic is absent', () => {
    const e = evaluator('tableDynamic', [
      read('ifType', {
        rowFilterConfig: {
          expressions: [
            { symbol: 'ethernet', expression: 'datapoint.value === 6' },
            { symbol: 'named', expression: "datapoints.ifName.value !== ''" },
          ],
        },
      }),
    ]);
    expect(e.update(bulk([cell('ifIndex', 1), cell('ifName', ''), cell('ifType', 6)])).values).toEqual([]);
    expect(e.update(single(1, 'ifName', 'eth1')).values.length).toBe(3);
  });
});

describe('non-finite cells', () => {
  it('rejects a cell whose rawValue is Infinity and still applies the other cells of the row', () => {
    const e = evaluator('tableDynamic');
    const output = e.update(bulk([cell('ifIndex', 1), cell('ifName', 'eth1'), cell('ifOperStatus', Infinity)]));
    expect(eventSummary(output)).toEqual(['update-rejected DT_ERR_PIPE_UPDATE_NOT_FINITE']);
    expect(output.events[0]).toMatchObject({ datapointId: 'ifOperStatus', tableIndex: 1 });
    expect(e.snapshot()[0]!.rows[0]!.values).toMatchObject({ ifName: { value: 'eth1' } });
  });
});
