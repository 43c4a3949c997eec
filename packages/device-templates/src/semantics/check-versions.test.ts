import { describe, expect, it } from 'vitest';
import { LAX_VERSION_PATTERN, STRICT_VERSION_PATTERN } from './check-versions.js';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';

describe('checkVersions', () => {
  it.each([
    ['1.2.3.4', '1.2.3'],
    ['foo 1.2.3', '1.2.3'],
    ['1.2.3-', '1.2.3'],
    ['1.2.3 foo', '1.2.3'],
  ])('warns on templateVersion %s, which only the lax pattern accepts', (version, core) => {
    const t = validTemplate();
    t.templateVersion = version;
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_VERSION_NOT_SEMVER');
    expect(problem).toMatchObject({ path: '/templateVersion', found: version, suggestion: core });
    expect(problem!.message).toContain('is not a SemVer version');
  });

  it('warns on schemaVersion 1x2x3 without a suggestion', () => {
    const t = validTemplate();
    t.schemaVersion = '1x2x3';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_VERSION_NOT_SEMVER');
    expect(problem!.path).toBe('/schemaVersion');
    expect(problem!.suggestion).toBeUndefined();
  });

  it.each(['1.0.0', 'v1.0.0', '0.0.10', '1.2.3-beta.1', '1.2.3+build.5', '7.5.3-test'])(
    'accepts SemVer %s',
    (version) => {
      const t = validTemplate();
      t.templateVersion = version;
      expect(withCode(semanticWarnings(t), 'DT_WARN_QUIRK_VERSION_NOT_SEMVER')).toEqual([]);
    },
  );

  it.each(['1.2', '01.2.3', '1.2.3foo'])('leaves %s, which the lax pattern rejects, to the schema', (version) => {
    expect(LAX_VERSION_PATTERN.test(version)).toBe(false);
    expect(STRICT_VERSION_PATTERN.test(version)).toBe(false);
    const t = validTemplate();
    t.templateVersion = version;
    expect(withCode(semanticWarnings(t), 'DT_WARN_QUIRK_VERSION_NOT_SEMVER')).toEqual([]);
  });
});
