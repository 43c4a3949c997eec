import { describe, expect, it } from 'vitest';
import { formatEventLine, formatValueLine } from './format-output.js';
import type { AlertEvent } from './pipeline-types.js';

const alert: AlertEvent = {
  type: 'alarm-raised',
  origin: 'sw-1',
  datapointSetId: 'system',
  datapointId: 'packetLoss',
  severity: 401,
  level: 'warning',
  text: 'packetLoss has no value',
  textHelp: 'help',
  facility: -1,
  hidden: false,
  audited: false,
  broadcast: false,
  timestamp: 1,
};

describe('formatValueLine', () => {
  it('shows place, JSON value, unit and notes', () => {
    const base = {
      origin: 'sw-1',
      datapointSetId: 'ifTable',
      datapointId: 'ifSpeed',
      tableIndex: 3,
      rawValue: 1,
      timestamp: 1,
    };
    expect(formatValueLine({ ...base, value: 1.5, unit: 'Gb', quality: 'good' }, 'sw-1')).toBe(
      'VALUE ifTable[3]/ifSpeed = 1.5 Gb',
    );
    expect(formatValueLine({ ...base, value: 'down', quality: 'bad', defaulted: true }, 'sw-1')).toBe(
      'VALUE ifTable[3]/ifSpeed = "down" (default, quality bad)',
    );
    expect(formatValueLine({ ...base, value: null, quality: 'good' }, 'other')).toBe(
      'VALUE sw-1 ifTable[3]/ifSpeed = null',
    );
  });
});

describe('formatEventLine', () => {
  it('says whether an alarm is raised or cleared, its severity, level and datapoint', () => {
    expect(formatEventLine(alert, 'sw-1')).toBe('RAISE 401 warning system/packetLoss: packetLoss has no value');
    expect(formatEventLine({ ...alert, type: 'alarm-cleared', value: 0 }, 'sw-1')).toBe(
      'CLEAR 401 warning system/packetLoss: packetLoss has no value (value 0)',
    );
    expect(formatEventLine({ ...alert, type: 'alarm-cleared', tableIndex: 2, reason: 'row-removed' }, 'sw-1')).toBe(
      'CLEAR 401 warning system[2]/packetLoss: packetLoss has no value (row removed)',
    );
    expect(formatEventLine({ ...alert, type: 'log', severity: 20, level: 'notification' }, 'sw-1')).toBe(
      'LOG 20 notification system/packetLoss: packetLoss has no value',
    );
  });

  it('names the stage and code of an evaluation error', () => {
    const line = formatEventLine(
      {
        type: 'evaluation-error',
        origin: 'sw-1',
        datapointSetId: 's',
        datapointId: 'd',
        timestamp: 1,
        stage: 'conversion',
        code: 'DT_ERR_EVAL_METHOD_RECEIVER',
        message: 'toUpperCase() needs a string, got number',
      },
      'sw-1',
    );
    expect(line).toBe('ERROR s/d conversion: toUpperCase() needs a string, got number [DT_ERR_EVAL_METHOD_RECEIVER]');
  });
});
