import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../loading/value-document.js';
import { checkSchema } from './check-schema.js';
import { schemaProblems } from './schema-problems.js';
import { invalidCases } from './test-support/compatibility-cases.js';

describe('schema problem catalogue', () => {
  it('pins every code, all errors with a title', () => {
    expect(Object.keys(schemaProblems)).toEqual([
      'DT_ERR_SCHEMA_REQUIRED',
      'DT_ERR_SCHEMA_TYPE',
      'DT_ERR_SCHEMA_PATTERN',
      'DT_ERR_SCHEMA_ENUM',
      'DT_ERR_SCHEMA_MIN_LENGTH',
      'DT_ERR_SCHEMA_MAX_LENGTH',
      'DT_ERR_SCHEMA_MINIMUM',
      'DT_ERR_SCHEMA_MAXIMUM',
      'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY',
      'DT_ERR_SCHEMA_MIN_ITEMS',
      'DT_ERR_SCHEMA_DUPLICATE',
      'DT_ERR_SCHEMA_DATAPOINT_COMBINATION',
      'DT_ERR_SCHEMA_TIMEPOINT_BLOCKS',
      'DT_ERR_SCHEMA_SEVERITY_BAND',
      'DT_ERR_SCHEMA_UNITS_COMBINATION',
      'DT_ERR_SCHEMA_VALUE_MAP_INTEGER',
      'DT_ERR_SCHEMA_TABLE_ADDRESS_REQUIRED',
      'DT_ERR_SCHEMA_INVALID',
    ]);
    for (const definition of Object.values(schemaProblems)) {
      expect(definition.severity).toBe('error');
      expect(definition.title.length).toBeGreaterThan(10);
    }
  });

  it('has every code but the fallback produced by some rejected compatibility case', () => {
    const produced = new Set(
      invalidCases().flatMap(([, doc]) => checkSchema(documentFromValue(doc, 'case.json')).map((p) => p.code)),
    );
    const expected = Object.keys(schemaProblems).filter((code) => code !== 'DT_ERR_SCHEMA_INVALID');
    expect([...produced].sort()).toEqual(expected.sort());
  });
});
