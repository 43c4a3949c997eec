import { describe, expect, it } from 'vitest';
import { suggestName } from './suggest-name.js';

describe('suggestName', () => {
  it('suggests a name one swap away', () => {
    expect(suggestName('netin-ds-drv-snpm', ['netin-ds-drv-snmp', 'netin-ds-drv-mqtt'])).toBe('netin-ds-drv-snmp');
  });
  it('does not pair two real driver names that share a long prefix', () => {
    expect(suggestName('netin-ds-drv-s7', ['netin-ds-drv-snmp'])).toBeUndefined();
  });
  it('matches a name that differs only in case', () => {
    expect(suggestName('IFTABLE', ['ifTable'])).toBe('ifTable');
  });
});
