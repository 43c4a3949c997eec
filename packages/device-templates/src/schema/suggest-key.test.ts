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
  it('matches the same word written with other separators', () => {
    expect(suggestKey('readOnly', ['read-only', 'write-only', 'read-write'])).toBe('read-only');
  });
  it('tolerates only one edit in a very short word', () => {
    expect(suggestKey('frm', ['from', 'to'])).toBe('from');
    expect(suggestKey('xyz', ['from', 'to'])).toBeUndefined();
  });
  it('never suggests the input itself', () => {
    expect(suggestKey('from', ['from'])).toBeUndefined();
  });
  it('stops early once the distance exceeds a given maximum', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });
  it('prefers the first listed candidate on a tie', () => {
    expect(suggestKey('cfgA', ['cfgB', 'cfgC'])).toBe('cfgB');
  });
});
