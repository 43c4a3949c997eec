/**
 * What the device-template JSON Schema allows at a place in a document: the keys of the object
 * there and the enum values of a field. Pure: the editor turns the cursor into a path and these
 * functions answer from the schema (draft-07: `$ref`, `properties`, `items`, `allOf`/`anyOf`/
 * `oneOf` and `then`/`else` branches are followed; a key allowed by any branch is offered).
 */

/** The parts of a JSON Schema object these functions read. */
export interface SchemaNode {
  readonly $ref?: string;
  readonly description?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly allOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly then?: SchemaNode;
  readonly else?: SchemaNode;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

/** One step into a document: an object key, or any array item (`number`). */
export type PathStep = string | number;

/** A key the schema allows, with its description and whether the object requires it. */
export interface KeyOption {
  readonly key: string;
  readonly description: string;
  readonly required: boolean;
}

const MAX_DEPTH = 64;

function resolveRef(root: SchemaNode, node: SchemaNode): SchemaNode {
  let current = node;
  for (let i = 0; current.$ref !== undefined && i < MAX_DEPTH; i++) {
    const match = /^#\/definitions\/(.+)$/.exec(current.$ref);
    const target = match?.[1] !== undefined ? root.definitions?.[match[1]] : undefined;
    if (!target) return {};
    // A $ref sibling description (draft-07 ignores siblings, editors show them) wins.
    current = current.description !== undefined ? { ...target, description: current.description } : target;
  }
  return current;
}

/** The node and every branch it combines with (allOf, anyOf, oneOf, then, else), resolved. */
function branches(root: SchemaNode, node: SchemaNode, depth = 0): SchemaNode[] {
  const resolved = resolveRef(root, node);
  if (depth > MAX_DEPTH) return [resolved];
  const parts = [
    ...(resolved.allOf ?? []),
    ...(resolved.anyOf ?? []),
    ...(resolved.oneOf ?? []),
    ...(resolved.then ? [resolved.then] : []),
    ...(resolved.else ? [resolved.else] : []),
  ];
  return [resolved, ...parts.flatMap((part) => branches(root, part, depth + 1))];
}

/** Every schema that applies at `path` (empty when the path leaves the schema). */
export function schemasAt(root: SchemaNode, path: readonly PathStep[]): SchemaNode[] {
  let current = branches(root, root);
  for (const step of path) {
    const next: SchemaNode[] = [];
    for (const node of current) {
      const child = typeof step === 'number' ? node.items : node.properties?.[step];
      if (child) next.push(...branches(root, child));
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/** The keys allowed in the object at `path`, required ones first, then by name. */
export function keyOptions(root: SchemaNode, path: readonly PathStep[]): KeyOption[] {
  const options = new Map<string, KeyOption>();
  for (const node of schemasAt(root, path)) {
    const required = new Set(node.required ?? []);
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const known = options.get(key);
      const description = known?.description || (resolveRef(root, child).description ?? '');
      options.set(key, { key, description, required: (known?.required ?? false) || required.has(key) });
    }
  }
  return [...options.values()].sort((a, b) =>
    a.required === b.required ? a.key.localeCompare(b.key) : a.required ? -1 : 1,
  );
}

/** The values the field at `path` may take (`enum` and `const`), or none when it is free. */
export function enumOptions(root: SchemaNode, path: readonly PathStep[]): unknown[] {
  const values: unknown[] = [];
  for (const node of schemasAt(root, path)) {
    for (const value of node.enum ?? []) if (!values.includes(value)) values.push(value);
    if (node.const !== undefined && !values.includes(node.const)) values.push(node.const);
  }
  return values;
}

/** The description of the field at `path`, for the completion's info. */
export function descriptionAt(root: SchemaNode, path: readonly PathStep[]): string {
  return schemasAt(root, path).find((node) => node.description !== undefined)?.description ?? '';
}

/** Narrows a parsed JSON document (the bundled schema file) to a schema node. */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
