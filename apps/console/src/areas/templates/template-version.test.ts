import { describe, expect, it } from 'vitest';
import { findTemplateVersion, nextPatchVersion } from './template-version.js';

describe('templateVersion in text', () => {
  it('finds the root version of YAML and JSON text', () => {
    const yaml = 'templateId: a\ntemplateVersion: "1.2.3"\n';
    const found = findTemplateVersion(yaml);
    expect(found?.version).toBe('1.2.3');
    expect(yaml.slice(found?.from, found?.to)).toBe('1.2.3');
    expect(findTemplateVersion('{\n  "templateVersion": "2.0.0",\n}')?.version).toBe('2.0.0');
    expect(findTemplateVersion('  nested:\n    templateVersion: 1.0.0')).toBeUndefined();
  });

  it('proposes the next patch version', () => {
    expect(nextPatchVersion('1.4.2')).toBe('1.4.3');
    expect(nextPatchVersion('2.0.0-rc.1')).toBe('2.0.0');
    expect(nextPatchVersion('x')).toBe('x.1');
  });
});
