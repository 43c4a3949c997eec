import { describe, expect, it } from 'vitest';
import { loadDocument } from '../loading/load-document.js';
import { checkSchema } from './check-schema.js';
import { at, mutated } from './test-support/base-template.js';
import { objectAt } from '../test-support/fixture-paths.js';

// These run once the positioned loader (src/loading/load-document.ts) is in place.
const loaderReady = (() => {
  try {
    loadDocument('{}', { format: 'json' });
    return true;
  } catch {
    return false;
  }
})();

/** 1-based line and column of the first occurrence of `needle` (after `from`, if given). */
function locate(text: string, needle: string, from = ''): { line: number; column: number } {
  const offset = text.indexOf(needle, from === '' ? 0 : text.indexOf(from));
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

describe.skipIf(!loaderReady)('positions from the real loader', () => {
  it('puts an unknown key at the key in JSON', () => {
    const text = JSON.stringify(
      mutated((d) => (d['templateID'] = 'x')),
      null,
      2,
    );
    const [p] = checkSchema(loadDocument(text, { format: 'json', file: 't.json' }));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY', ...locate(text, '"templateID"') });
  });

  it('puts a missing key at the object that lacks it in JSON', () => {
    const text = JSON.stringify(
      mutated((d) => delete objectAt(at.cpu(d), 'addressConfig').pollingGroup),
      null,
      2,
    );
    const [p] = checkSchema(loadDocument(text, { format: 'json', file: 't.json' }));
    const key = locate(text, '"addressConfig"');
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_REQUIRED',
      line: key.line,
      column: key.column + '"addressConfig": '.length,
    });
  });

  it('puts the published "defaultValueConfig, addressConfig" branch errors at the datapoint in JSON', () => {
    const withoutCommon = JSON.stringify(
      mutated((d) => (at.systemSet(d).datapoints = [{ 'defaultValueConfig, addressConfig': {} }])),
      null,
      2,
    );
    const [missing] = checkSchema(loadDocument(withoutCommon, { format: 'json', file: 't.json' }));
    const key = locate(withoutCommon, '"defaultValueConfig, addressConfig"');
    expect(missing).toMatchObject({
      code: 'DT_ERR_SCHEMA_DATAPOINT_COMBINATION',
      path: '/datapointSets/0/datapoints/0',
    });
    expect(missing?.message).toContain('has no commonConfig');
    // The datapoint's opening brace: the line above its only key, two columns to the left.
    expect([missing?.line, missing?.column]).toEqual([key.line - 1, key.column - 2]);

    const both = JSON.stringify(
      mutated((d) => {
        at.cpu(d)['defaultValueConfig, addressConfig'] = {};
        at.cpu(d).calcConfig = { expression: '1' };
      }),
      null,
      2,
    );
    const [combined] = checkSchema(loadDocument(both, { format: 'json', file: 't.json' }));
    expect(combined).toMatchObject({ code: 'DT_ERR_SCHEMA_DATAPOINT_COMBINATION' });
    expect(combined?.message).toContain('has both addressConfig and calcConfig');
    expect(combined?.line).toBeGreaterThan(1);
    expect(combined?.column).toBeGreaterThan(1);
  });

  it('puts a bad value at the value in YAML', () => {
    const text = [
      'templateId: x',
      'templateVersion: "1.2"',
      'description: d',
      'origin: o',
      'datapointSets: []',
      '',
    ].join('\n');
    const problems = checkSchema(loadDocument(text, { format: 'yaml', file: 't.yaml' }));
    expect(problems.map((p) => [p.code, p.path, p.line, p.column])).toEqual([
      ['DT_ERR_SCHEMA_PATTERN', '/templateVersion', 2, 18],
      ['DT_ERR_SCHEMA_MIN_ITEMS', '/datapointSets', 5, 16],
    ]);
  });
});

describe.skipIf(!loaderReady)('messages that quote the source text', () => {
  it('suggests quoting a YAML number as it was written', () => {
    const text = [
      'templateId: x',
      'templateVersion: 1.0 # oops',
      'description: d',
      'origin: o',
      'datapointSets: []',
      '',
    ].join('\n');
    const [p] = checkSchema(loadDocument(text, { format: 'yaml', file: 't.yaml' }));
    expect(p?.message).toBe('templateVersion must be a string, found the number 1; in YAML, put it in quotes: "1.0"');
  });
});
