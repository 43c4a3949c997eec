import { isObject } from '@triad/common';
import { inlineRefs } from './inline-refs.js';
import { templateSchema, type JsonSchemaObject } from './template-schema.js';

/**
 * The template schema with its references inlined: what the validator compiles (see
 * `inlineRefs` for why).
 */
const inlined = inlineRefs(templateSchema);
export const compiledTemplateSchema: JsonSchemaObject = inlined.schema;

/**
 * Where each schema object sits inside the template schema, as a JSON Pointer
 * (`/definitions/addressConfig/properties/pollingGroup`), for the original nodes and for the
 * inlined nodes the validator actually runs. ajv's own `schemaPath` depends on how it compiled
 * references, so errors are located by the identity of the schema node they carry
 * (`parentSchema`, available because the validator runs with `verbose`).
 */
const locations = new Map<object, string>(inlined.locations);
index(templateSchema, '');

function index(node: unknown, pointer: string): void {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node)) locations.set(node, pointer);
  for (const [key, child] of Object.entries(node)) index(child, `${pointer}/${key}`);
}

/** The pointer of a node of the template schema, or undefined for a foreign object. */
export function schemaLocationOf(node: unknown): string | undefined {
  return node !== null && typeof node === 'object' ? locations.get(node) : undefined;
}

/** The schema node at a pointer such as `/definitions/datapoint`, or undefined. */
export function schemaNodeAt(pointer: string): JsonSchemaObject | undefined {
  let node: unknown = templateSchema;
  for (const key of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, key);
  }
  return isObject(node) ? node : undefined;
}

/** The known property names of an object schema (after following a local `$ref`). */
export function knownKeysOf(node: JsonSchemaObject | undefined): string[] {
  const target = resolveRef(node);
  const properties = target?.['properties'];
  return properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
}

/** Follows one local `$ref` (`#/definitions/x`) if the node is a reference. */
export function resolveRef(node: JsonSchemaObject | undefined): JsonSchemaObject | undefined {
  const ref = node?.['$ref'];
  return typeof ref === 'string' && ref.startsWith('#') ? schemaNodeAt(ref.slice(1)) : node;
}
