import { describe, expect, it } from 'vitest';
import { checkPatternForRe2 } from './check-ranger-filter.js';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

describe('checkRangerFilter', () => {
  it('warns on a lookbehind, which JavaScript runs but RE2 rejects', () => {
    const t = validTemplate();
    objectAt(t, 'rangerFilter').description = '(?<=SIMATIC NET, )SCALANCE';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_RANGER_REGEX_UNSUPPORTED');
    expect(problem).toMatchObject({ path: '/rangerFilter/description', found: '(?<=SIMATIC NET, )SCALANCE' });
    expect(problem!.message).toContain('RE2, which discovery matches with, rejects it');
  });

  it('warns on a backreference', () => {
    const t = validTemplate();
    objectAt(t, 'rangerFilter').deviceID = '(0x0A)\\1';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_RANGER_REGEX_UNSUPPORTED').map((p) => p.path)).toEqual([
      '/rangerFilter/deviceID',
    ]);
  });

  it('warns on a pattern that is no regular expression at all', () => {
    const t = validTemplate();
    objectAt(t, 'rangerFilter').vendorID = '0x002A[';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_RANGER_REGEX_INVALID');
    expect(problem!.path).toBe('/rangerFilter/vendorID');
    expect(problem!.message).toContain('missing ]');
  });

  it('accepts plain, anchored and class-based patterns', () => {
    expect(checkPatternForRe2('SIMATIC NET, SCALANCE X2')).toBeUndefined();
    expect(checkPatternForRe2('^0x0A0[0-9A-F]$')).toBeUndefined();
    expect(checkPatternForRe2('\\d+\\s\\p{L}')).toBeUndefined();
  });
});
