import { Ajv } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import { describe, expect, it } from 'vitest';
import { inlineRefs } from './inline-refs.js';
import { compiledTemplateSchema, schemaLocationOf } from './schema-locations.js';
import { templateSchema, type JsonSchemaObject } from './template-schema.js';
import { rawSchemaErrors } from './template-validator.js';
import { baseTemplate, mutated } from './test-support/base-template.js';
import { COMPATIBILITY_TABLE } from './test-support/compatibility-cases.js';

type Plugin = (ajv: Ajv, keywords: string[]) => Ajv;
const addKeywords: Plugin =
  typeof ajvKeywords === 'function' ? ajvKeywords : (ajvKeywords as unknown as { default: Plugin }).default;

describe('inlineRefs', () => {
  it('leaves no $ref and no definitions in the compiled schema', () => {
    const text = JSON.stringify(compiledTemplateSchema);
    expect(text).not.toContain('"$ref"');
    expect(compiledTemplateSchema['definitions']).toBeUndefined();
  });

  it('maps inlined nodes back to the definition they came from', () => {
    const properties = compiledTemplateSchema['properties'] as Record<string, JsonSchemaObject>;
    expect(schemaLocationOf(properties['templateVersion'])).toBe('/definitions/version');
    expect(properties['templateVersion']?.['description']).toContain('Version of this template');
    expect(schemaLocationOf(properties['datapointSets'])).toBe('/properties/datapointSets');
  });

  it('rejects recursive references', () => {
    const recursive = {
      definitions: { a: { properties: { b: { $ref: '#/definitions/a' } } } },
      $ref: '#/definitions/a',
    };
    expect(() => inlineRefs(recursive)).toThrow(/recursive/);
  });

  it('gives the same verdict as the schema with references on every compatibility case', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addKeywords(ajv, ['uniqueItemProperties']);
    const withRefs = ajv.compile(templateSchema as Record<string, unknown>);
    const docs = [
      baseTemplate(),
      ...COMPATIBILITY_TABLE.flatMap(([, rows]) => rows.map(([, change]) => mutated(change))),
    ];
    for (const doc of docs) expect(rawSchemaErrors(doc).length === 0).toBe(withRefs(doc));
  });
});
