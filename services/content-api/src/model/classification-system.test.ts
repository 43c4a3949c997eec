import { describe, expect, it } from 'vitest';
import { majorVersionOf, normalizeGroupId, normalizeSystemName, standardSystemOf } from './classification-system.js';

describe('normalizeSystemName', () => {
  it.each([
    ['UNSPSC', 'UNSPSC'],
    ['unspsc', 'UNSPSC'],
    ['UNSPSC-7', 'UNSPSC-7'],
    ['UNSPSC_9.0', 'UNSPSC-9.0'],
    ['UNSPSC 13.5', 'UNSPSC-13.5'],
    ['UNSPSC-7.0401', 'UNSPSC-7.0401'],
    ['ECLASS-5.1.4', 'ECLASS-5.1.4'],
    ['eCl@ss 6.1', 'ECLASS-6.1'],
    ['ECLASS_5.1', 'ECLASS-5.1'],
    ['eclass5,1', 'ECLASS-5.1'],
    ['e-class-7.0', 'ECLASS-7.0'],
    ['ECLASS-11.0 ADVANCED', 'ECLASS-11.0-ADVANCED'],
    ['ECLASS', 'ECLASS'],
    ['ETIM-7.0', 'ETIM-7.0'],
    ['ETIM 7.0', 'ETIM-7.0'],
    ['etim_8', 'ETIM-8'],
    ['  udf_Supplier-1.0 ', 'udf_Supplier-1.0'],
    ['ECLASSIC', 'ECLASSIC'],
    ['UNSPSC-Lite', 'UNSPSC-Lite'],
  ])('keeps %j as %j', (name, kept) => {
    expect(normalizeSystemName(name)).toBe(kept);
  });

  it('tells the standard system and its major version of a kept name', () => {
    expect(['ECLASS-5.1', 'ETIM-7.0', 'UNSPSC', 'udf_X-1.0'].map(standardSystemOf)).toEqual([
      'ECLASS',
      'ETIM',
      'UNSPSC',
      undefined,
    ]);
    expect(['UNSPSC-7.0401', 'UNSPSC-9', 'UNSPSC'].map(majorVersionOf)).toEqual(['7', '9', undefined]);
  });
});

describe('normalizeGroupId', () => {
  it('drops the hyphens of digit groups only, keeping IRDIs and ETIM classes as written', () => {
    expect(['22-22-22-22', ' 50363611 ', '0173-1#01-ADN228#005', 'EC000057'].map(normalizeGroupId)).toEqual([
      '22222222',
      '50363611',
      '0173-1#01-ADN228#005',
      'EC000057',
    ]);
  });
});
