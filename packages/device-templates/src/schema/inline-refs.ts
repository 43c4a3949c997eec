import type { JsonSchemaObject } from './template-schema.js';

/** A schema with every local `$ref` replaced by its target, and where each node came from. */
export interface InlinedSchema {
  readonly schema: JsonSchemaObject;
  /** For each object of `schema`: the JSON Pointer of the node it stands for in the original. */
  readonly locations: ReadonlyMap<object, string>;
}

/**
 * Replaces every `#/definitions/...` reference by the (inlined) definition itself and drops
 * `definitions`, so ajv compiles one validation function. ajv compiles a referenced schema that
 * itself holds references as a separate function and merges its errors with `Array.concat`,
 * which makes a document with thousands of invalid datapoints cost quadratic time.
 *
 * Each definition is inlined once and shared by all its uses; a reference with sibling
 * annotations (`description`) becomes a shallow copy of the target carrying them. Every object
 * of the result maps to the pointer of the original node it represents (a reference maps to
 * its target), so errors can still be located by schema node. Throws on a recursive or
 * non-local reference (the template schema has neither).
 */
export function inlineRefs(original: JsonSchemaObject): InlinedSchema {
  const definitions = (original['definitions'] ?? {}) as Record<string, unknown>;
  const locations = new Map<object, string>();
  const done = new Map<string, unknown>();

  const definition = (pointer: string, active: readonly string[]): unknown => {
    const cached = done.get(pointer);
    if (cached !== undefined) return cached;
    if (active.includes(pointer)) throw new Error(`recursive $ref ${pointer}`);
    const name = pointer.slice('/definitions/'.length);
    if (!pointer.startsWith('/definitions/') || !(name in definitions)) throw new Error(`unsupported $ref #${pointer}`);
    const resolved = visit(definitions[name], pointer, [...active, pointer]);
    done.set(pointer, resolved);
    return resolved;
  };

  const visit = (node: unknown, pointer: string, active: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((child, index) => visit(child, `${pointer}/${index}`, active));
    if (node === null || typeof node !== 'object') return node;
    const ref: unknown = Reflect.get(node, '$ref');
    if (typeof ref === 'string') {
      const target = ref.startsWith('#') ? ref.slice(1) : ref;
      const resolved = definition(target, active);
      const siblings = Object.entries(node).filter(([key]) => key !== '$ref');
      if (siblings.length === 0 || resolved === null || typeof resolved !== 'object') return resolved;
      const merged = { ...resolved, ...Object.fromEntries(siblings) };
      locations.set(merged, target);
      return merged;
    }
    const out: Record<string, unknown> = {};
    locations.set(out, pointer);
    for (const [key, child] of Object.entries(node)) {
      if (pointer === '' && key === 'definitions') continue;
      out[key] = visit(child, `${pointer}/${key}`, active);
    }
    return out;
  };

  return { schema: visit(original, '', []) as JsonSchemaObject, locations };
}
