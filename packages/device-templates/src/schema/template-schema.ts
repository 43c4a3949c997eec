import { readFileSync } from 'node:fs';

/** The `$id` of the device-template JSON Schema shipped in `schema/device-template.schema.json`. */
export const TEMPLATE_SCHEMA_ID = 'https://triad.dev/schemas/device-template.schema.json';

/** A JSON Schema (draft-07) object as parsed from JSON. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/**
 * The device-template JSON Schema (draft-07), parsed from `schema/device-template.schema.json`
 * and deeply frozen. The file is read relative to this module, which sits one level below the
 * package root both in `src/` and in `dist/`, so the same path works for sources and builds.
 */
export const templateSchema: JsonSchemaObject = deepFreeze(
  JSON.parse(
    readFileSync(new URL('../../schema/device-template.schema.json', import.meta.url), 'utf8'),
  ) as JsonSchemaObject,
);

if (templateSchema['$id'] !== TEMPLATE_SCHEMA_ID) {
  throw new Error(`device-template schema has $id ${String(templateSchema['$id'])}, expected ${TEMPLATE_SCHEMA_ID}`);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
