import { templateSchema, type JsonSchemaObject } from '../schema/template-schema.js';
import { isObject } from '@triad/common';

/** What the schema says about the value at one path, merged over every branch that may apply. */
export interface SchemaFacts {
  /** The first description found, the property's own before its definition's. */
  readonly description?: string;
  /** JSON types allowed (`string`, `object`...), in schema order, without repeats. */
  readonly types: readonly string[];
  /** Values of `enum` and `const`, without repeats. */
  readonly values: readonly unknown[];
  /** Property names and their schemas, when the value is an object. */
  readonly properties: ReadonlyMap<string, readonly JsonSchemaObject[]>;
  /** The schemas themselves (with `$ref`s followed and combinators expanded). */
  readonly schemas: readonly JsonSchemaObject[];
}

/**
 * What the device-template schema allows at `path` (keys and array indexes, root first). Follows
 * `$ref`, `items`, `properties` and `additionalProperties`, and expands `allOf`, `anyOf`, `oneOf`
 * and `then`/`else` into candidates, since an editor cannot know which branch the author means.
 * An unknown path gives empty facts. Pure; never throws.
 */
export function schemaAtPath(path: readonly (string | number)[], root: JsonSchemaObject = templateSchema): SchemaFacts {
  let level: JsonSchemaObject[] = [root];
  let description: string | undefined = descriptionOf(root);
  for (const segment of path) {
    const next: JsonSchemaObject[] = [];
    description = undefined;
    for (const schema of expand(level, root)) {
      const child =
        typeof segment === 'number' || /^\d+$/.test(segment)
          ? schema['items']
          : (propertyOf(schema, segment) ?? schema['additionalProperties']);
      if (isObject(child)) {
        description ??= descriptionOf(child);
        next.push(child);
      }
    }
    level = next;
  }
  const schemas = expand(level, root);
  for (const s of schemas) description ??= descriptionOf(s);
  const types: string[] = [];
  const values: unknown[] = [];
  const properties = new Map<string, JsonSchemaObject[]>();
  for (const s of schemas) {
    const type = s['type'];
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string' && !types.includes(t)) types.push(t);
    if (Array.isArray(s['enum'])) for (const v of s['enum']) if (!values.includes(v)) values.push(v);
    if ('const' in s && !values.includes(s['const'])) values.push(s['const']);
    const props = s['properties'];
    if (isObject(props))
      for (const [name, sub] of Object.entries(props)) {
        if (!isObject(sub)) continue;
        const list = properties.get(name) ?? [];
        list.push(sub);
        properties.set(name, list);
      }
  }
  return { ...(description !== undefined ? { description } : {}), types, values, properties, schemas };
}

function propertyOf(schema: JsonSchemaObject, name: string): unknown {
  const props = schema['properties'];
  return isObject(props) && Object.hasOwn(props, name) ? props[name] : undefined;
}

function descriptionOf(schema: JsonSchemaObject): string | undefined {
  const d = schema['description'];
  return typeof d === 'string' ? d : undefined;
}

/** The schemas and every `$ref` target and combinator branch reachable from them. */
function expand(schemas: readonly JsonSchemaObject[], root: JsonSchemaObject): JsonSchemaObject[] {
  const out: JsonSchemaObject[] = [];
  const seen = new Set<JsonSchemaObject>();
  const visit = (schema: JsonSchemaObject, depth: number) => {
    if (seen.has(schema) || depth > 16) return;
    seen.add(schema);
    out.push(schema);
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const target = resolveRef(ref, root);
      if (target !== undefined) visit(target, depth + 1);
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[keyword];
      if (Array.isArray(list)) for (const s of list) if (isObject(s)) visit(s, depth + 1);
    }
    for (const keyword of ['then', 'else']) {
      const s = schema[keyword];
      if (isObject(s)) visit(s, depth + 1);
    }
  };
  for (const s of schemas) visit(s, 0);
  return out;
}

function resolveRef(ref: string, root: JsonSchemaObject): JsonSchemaObject | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isObject(node) ? node : undefined;
}
