import { describe, expect, it } from 'vitest';
import { editDistance, suggestKey } from './suggest-key.js';

describe('suggestKey', () => {
  const datapointBlocks = ['commonConfig', 'addressConfig', 'alertConfig', 'calcConfig', 'convConfig', 'unitsConfig'];
  it('suggests unitsConfig for unitConfig', () => {
    expect(suggestKey('unitConfig', datapointBlocks)).toBe('unitsConfig');
  });
  it('matches a key that differs only in case', () => {
    expect(suggestKey('templateID', ['templateId', 'templateVersion'])).toBe('templateId');
  });
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('aelrtconfig', 'alertconfig')).toBe(1);
  });
  it('suggests nothing for a key far from every candidate', () => {
    expect(suggestKey('vendorNotes', datapointBlocks)).toBeUndefined();
  });
});
