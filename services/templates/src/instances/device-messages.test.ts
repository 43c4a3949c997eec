import { describe, expect, it } from 'vitest';
import { CHANGE_BUS_MAX_PAYLOAD_BYTES } from '@triad/db';
import {
  MAX_PIECED_VALUE_BYTES,
  messageBytes,
  parseDeviceMessage,
  splitBySize,
  ValueAssembler,
  valuePieces,
  type DeviceMessage,
} from './device-messages.js';
import type { DeviceValue } from '../presenters/device-presenter.js';

const value = (n: number, text = ''): DeviceValue => ({
  datapointSetId: 'interfaces',
  datapointId: `ifDescr${n}`,
  row: String(n),
  value: `port ${n} ${text}`,
  rawValue: `port ${n} ${text}`,
  quality: 'good',
  timestamp: 1_764_000_000_000 + n,
});

describe('device bus messages', () => {
  // A long host name makes a long instance id: the envelope must be counted.
  const envelope: DeviceMessage = {
    t: 'values',
    from: `${'h'.repeat(200)}-4242-abcdef`,
    id: '5f0c2d3e-1111-2222-3333-444455556666',
    req: '0123456789abcdef',
    last: false,
    values: [],
  };

  it('splits values into parts that each fit one bus message, in order, losing none', () => {
    const values = Array.from({ length: 400 }, (_, n) => value(n, 'é'.repeat(n % 50)));
    const { parts, oversize } = splitBySize(values, envelope);
    expect(oversize).toEqual([]);
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.flat()).toEqual(values);
    for (const part of parts) {
      expect(part.length).toBeGreaterThan(0);
      expect(messageBytes({ ...envelope, last: true, values: part })).toBeLessThanOrEqual(CHANGE_BUS_MAX_PAYLOAD_BYTES);
    }
  });

  it('sets aside a value too large for any message, and gives one empty part for no values', () => {
    const huge = value(1, 'x'.repeat(CHANGE_BUS_MAX_PAYLOAD_BYTES));
    expect(splitBySize([value(0), huge, value(2)], envelope)).toEqual({
      parts: [[value(0), value(2)]],
      oversize: [huge],
    });
    expect(splitBySize([], envelope)).toEqual({ parts: [[]], oversize: [] });
  });

  it('cuts a value too large for one message into pieces that fit, and puts it together again', () => {
    // Quotes, backslashes and control characters grow when escaped; an astral character may be cut in two.
    const text = 'say "hi" \\ tab\t nul\u0000 😀 é '.repeat(1500);
    const big = value(7, text);
    const pieces = valuePieces(big, envelope, 'k1');
    expect(pieces.length).toBeGreaterThan(10);
    for (const piece of pieces) expect(messageBytes(piece)).toBeLessThanOrEqual(CHANGE_BUS_MAX_PAYLOAD_BYTES);
    const assembler = new ValueAssembler();
    const wire = pieces.map(
      (p) => parseDeviceMessage(JSON.stringify(p)) as Extract<DeviceMessage, { t: 'value-piece' }>,
    );
    const results = wire.map((p) => assembler.add(p));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(results.at(-1)).toEqual(big);
    expect(assembler.pending).toBe(0);
    // A lost piece drops that value, and the next one still comes through.
    const again = valuePieces(big, envelope, 'k2').map(
      (p) => parseDeviceMessage(JSON.stringify(p)) as Extract<DeviceMessage, { t: 'value-piece' }>,
    );
    expect(again.filter((_, i) => i !== 3).map((p) => assembler.add(p))).not.toContainEqual(big);
    expect(wire.map((p) => assembler.add(p)).at(-1)).toEqual(big);
    expect(MAX_PIECED_VALUE_BYTES).toBeGreaterThan(Buffer.byteLength(JSON.stringify(big)));
  });

  it('reads its own messages and ignores anything else on the topic', () => {
    const change: DeviceMessage = { t: 'change', from: 'a-1-000000', kind: 'updated', id: 'd' };
    expect(parseDeviceMessage(JSON.stringify(change))).toEqual(change);
    expect(parseDeviceMessage('not json')).toBeUndefined();
    expect(parseDeviceMessage('"text"')).toBeUndefined();
    expect(parseDeviceMessage(JSON.stringify({ t: 'other', from: 'a' }))).toBeUndefined();
    expect(parseDeviceMessage(JSON.stringify({ t: 'ask', id: 'd' }))).toBeUndefined();
  });
});
