import { describe, expect, it } from 'vitest';
import schema from '@triad/device-templates/schema.json';
import { enumOptions, isSchemaNode, keyOptions, type SchemaNode } from './schema-completion.js';

const root: SchemaNode = isSchemaNode(schema) ? schema : {};

describe('schema completion', () => {
  it('offers the root keys with the required ones first', () => {
    const keys = keyOptions(root, []);
    expect(keys.slice(0, 5).map((k) => k.key)).toEqual(
      ['datapointSets', 'description', 'origin', 'templateId', 'templateVersion'].sort((a, b) => a.localeCompare(b)),
    );
    expect(keys.every((k, i) => i < 5 === k.required)).toBe(true);
    expect(keys.map((k) => k.key)).toContain('rangerFilter');
  });

  it('follows $ref and array items down to a datapoint block', () => {
    const keys = keyOptions(root, ['datapointSets', 0, 'datapoints', 0, 'commonConfig']).map((k) => k.key);
    expect(keys).toEqual(expect.arrayContaining(['datapointId', 'datapointType', 'alias']));
  });

  it('offers the enum values of a field', () => {
    expect(enumOptions(root, ['datapointSets', 0, 'datapointSetType'])).toEqual(
      expect.arrayContaining(['map', 'tableDynamic']),
    );
    expect(enumOptions(root, ['templateId'])).toEqual([]);
  });

  it('offers nothing for a path outside the schema', () => {
    expect(keyOptions(root, ['nope', 'deeper'])).toEqual([]);
  });
});
