import { describe, expect, it } from 'vitest';
import { readSample, splitSamples } from './try-samples.js';

describe('Try it samples', () => {
  it('splits at commas outside quotes, brackets and braces', () => {
    expect(splitSamples('10, [1, 2], {"a": 1, "b": 2}, "x, y", ')).toEqual([
      '10',
      '[1, 2]',
      '{"a": 1, "b": 2}',
      '"x, y"',
    ]);
  });

  it('refuses a number for a BOOLEAN datapoint, as no driver would deliver it', () => {
    expect(readSample('10', 'BOOLEAN')).toEqual({ problem: '10 is not true or false' });
    expect(readSample('true', 'BOOLEAN')).toEqual({ value: true });
  });

  it('checks whole numbers and their range, and numbers', () => {
    expect(readSample('2.5', 'INTEGER')).toEqual({ problem: '2.5 is not a whole number' });
    expect(readSample('300', 'BYTE')).toEqual({ problem: '300 is outside -128 to 255' });
    expect(readSample('2.5', 'DOUBLE')).toEqual({ value: 2.5 });
    expect(readSample('up', 'DOUBLE')).toEqual({ problem: 'up is not a number' });
  });

  it('takes bare text for STRING, null for any type, and checks array items', () => {
    expect(readSample('up', 'STRING')).toEqual({ value: 'up' });
    expect(readSample('42', 'STRING')).toEqual({ value: '42' });
    expect(readSample('null', 'BOOLEAN')).toEqual({ value: null });
    expect(readSample('[1, "x"]', 'INTEGER_ARRAY')).toEqual({ problem: '"x" in [1, "x"] is not a whole number' });
    expect(readSample('5', 'ARRAY')).toEqual({ problem: '5 is not a JSON array such as [1, 2]' });
  });
});
