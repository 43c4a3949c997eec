import { describe, expect, it } from 'vitest';
import { compareVersions, newestFirst } from './compare-versions.js';

describe('compareVersions', () => {
  it('orders the SemVer specification example chain', () => {
    const chain = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 0; i + 1 < chain.length; i++) {
      expect(compareVersions(chain[i] as string, chain[i + 1] as string), `${chain[i]} < ${chain[i + 1]}`).toBeLessThan(
        0,
      );
      expect(compareVersions(chain[i + 1] as string, chain[i] as string)).toBeGreaterThan(0);
    }
  });

  it('compares numeric parts numerically, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('0.0.10', '0.0.9')).toBeGreaterThan(0);
    expect(compareVersions('10.0.0', '9.99.99')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-rc.10', '1.0.0-rc.9')).toBeGreaterThan(0);
    expect(compareVersions('99999999999999999999.0.0', '99999999999999999998.0.0')).toBeGreaterThan(0);
  });

  it('puts a pre-release below its release', () => {
    expect(compareVersions('7.5.3-test', '7.5.3')).toBeLessThan(0);
    expect(compareVersions('7.5.3-test', '7.5.2')).toBeGreaterThan(0);
  });

  it('ignores build metadata and a leading v for precedence but stays total', () => {
    expect(Math.sign(compareVersions('v1.2.3', '1.2.4'))).toBe(-1);
    expect(compareVersions('1.2.3+build.5', '1.2.3+build.6')).not.toBe(0);
    expect(Math.abs(compareVersions('1.2.3+b', '1.2.3'))).toBeGreaterThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
  });

  it('sorts versions that are not strict SemVer below all SemVer versions', () => {
    expect(compareVersions('1.2.3.4', '0.0.1')).toBeLessThan(0);
    expect(compareVersions('0.0.1', '1x2x3')).toBeGreaterThan(0);
  });
});

describe('newestFirst', () => {
  it('sorts newest first without changing its input', () => {
    const input = ['1.0.0', '1.10.0', '1.2.0', '1.10.0-beta', '2.0.0-alpha.1', '1.2.3.4'];
    expect(newestFirst(input)).toEqual(['2.0.0-alpha.1', '1.10.0', '1.10.0-beta', '1.2.0', '1.0.0', '1.2.3.4']);
    expect(input[0]).toBe('1.0.0');
  });
});
