import { describe, expect, it } from 'vitest';
import { datapointIdsAround, datapointReferenceAt, isDottedId } from './datapoint-ids.js';

const TEXT = [
  'datapointSets:',
  '  - datapointSetId: system',
  '    datapoints:',
  '      - commonConfig: { datapointId: cpuLoad }',
  '      - commonConfig: { datapointId: "if#1" }',
  '      - calcConfig: { expression: "datapoints.cp" }',
  '  - datapointSetId: other',
  '    datapoints:',
  '      - commonConfig: { datapointId: fan }',
].join('\n');

describe('datapoint ids', () => {
  it('lists the ids of the set around the cursor only', () => {
    expect(datapointIdsAround(TEXT, TEXT.indexOf('datapoints.cp'))).toEqual(['cpuLoad', 'if#1']);
    expect(datapointIdsAround(TEXT, TEXT.length)).toEqual(['fan']);
  });

  it('recognises a reference being typed, dotted or in brackets', () => {
    expect(datapointReferenceAt('expression: "datapoints.cp')).toEqual({ typed: 'cp', bracket: false });
    expect(datapointReferenceAt("x: datapoints['if#")).toEqual({ typed: 'if#', bracket: true });
    expect(datapointReferenceAt('expression: datapoint.value')).toBeUndefined();
  });

  it('tells ids that need brackets', () => {
    expect(isDottedId('cpuLoad')).toBe(true);
    expect(isDottedId('if#1')).toBe(false);
  });
});
