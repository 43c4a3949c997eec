import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { resolveRef } from './schema-locations.js';
import { TEMPLATE_SCHEMA_ID, templateSchema, type JsonSchemaObject } from './template-schema.js';
import { templateValidator } from './template-validator.js';

// The version pattern exactly as the reference gives it (unanchored, unescaped dots, lookbehind).
const REFERENCE_SEMVER =
  '(?<=^v?|\\sv?)(?:(?:0|[1-9][0-9]*).){2}(?:0|[1-9][0-9]*)' +
  '(?:-(?:0|[1-9][0-9]*|[0-9a-z-]*[a-z-][0-9a-z-]*)(?:.(?:0|[1-9][0-9]*|[0-9a-z-]*[a-z-][0-9a-z-]*))*)?' +
  '(?:\\+[0-9a-z-]+(?:.[0-9a-z-]+)*)?\\b';

function walk(node: unknown, visit: (node: JsonSchemaObject, pointer: string) => void, pointer = ''): void {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node as JsonSchemaObject, pointer);
  for (const [key, child] of Object.entries(node)) walk(child, visit, `${pointer}/${key}`);
}

describe('the device-template JSON Schema file', () => {
  it('is a draft-07 schema with our own $id', () => {
    expect(templateSchema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(templateSchema['$id']).toBe(TEMPLATE_SCHEMA_ID);
  });

  it('is valid against the draft-07 meta-schema', () => {
    const ajv = new Ajv({ strict: false });
    expect(ajv.validateSchema(templateSchema as Record<string, unknown>)).toBe(true);
    expect(ajv.errors ?? null).toBeNull();
  });

  it('compiles in ajv strict-schema mode with only uniqueItemProperties as an extra keyword', () => {
    expect(typeof templateValidator()).toBe('function');
    const extra = new Set<string>();
    walk(templateSchema, (node) => {
      for (const key of Object.keys(node))
        if (['errorMessage', 'markdownDescription', 'defaultSnippets', 'uniqueItemProperties'].includes(key))
          extra.add(key);
    });
    expect([...extra]).toEqual(['uniqueItemProperties']);
  });

  it('uses the reference version pattern verbatim', () => {
    const definitions = templateSchema['definitions'] as Record<string, JsonSchemaObject>;
    expect(definitions['version']?.['pattern']).toBe(REFERENCE_SEMVER);
  });

  it('describes every named field for editors', () => {
    const undocumented: string[] = [];
    walk(templateSchema, (node, pointer) => {
      const properties = node['properties'];
      if (properties === null || typeof properties !== 'object' || pointer.includes('/if') || pointer.includes('/then'))
        return;
      for (const [key, child] of Object.entries(properties as Record<string, unknown>)) {
        if (typeof child !== 'object' || child === null) continue; // the commonConfig compatibility trap is `false`
        const own = (child as JsonSchemaObject)['description'];
        const target = resolveRef(child as JsonSchemaObject)?.['description'];
        if (typeof own !== 'string' && typeof target !== 'string') undocumented.push(`${pointer}/properties/${key}`);
      }
    });
    expect(undocumented).toEqual([]);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(templateSchema)).toBe(true);
    expect(Object.isFrozen(templateSchema['definitions'])).toBe(true);
  });
});
