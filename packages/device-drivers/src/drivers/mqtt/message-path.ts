/**
 * Reading a value out of a decoded message: dot paths (`payload.sensors.0.value`, operation mode
 * `extract`) and JSONPath (`$.payload.sensors.*.value`, mode `transform`, jsonpath-plus with
 * script evaluation off). `undefined` means "not in this message".
 */
import { JSONPath } from 'jsonpath-plus';

/**
 * Compiles a dot path into a reader of the value it addresses: object keys (own properties only,
 * so `__proto__` or `constructor` never reach the prototype) and array indexes. A leading `$.` is
 * allowed and ignored. The path is split once, not per message.
 */
export function dotPathReader(path: string): (root: unknown) => unknown {
  return dotKeysReader(dotPathKeys(path));
}

/** The keys of a dot path, in order (a leading `$.` dropped). */
export function dotPathKeys(path: string): string[] {
  return (path.startsWith('$.') ? path.slice(2) : path).split('.');
}

/** The reader of `dotPathReader` for keys already split. */
export function dotKeysReader(keys: readonly string[]): (root: unknown) => unknown {
  return (root) => {
    let current = root;
    for (const key of keys) {
      if (typeof current !== 'object' || current === null) return undefined;
      if (Array.isArray(current)) {
        if (!/^\d+$/.test(key)) return undefined;
        current = current[Number(key)];
      } else {
        if (!Object.hasOwn(current, key)) return undefined;
        current = (current as Record<string, unknown>)[key];
      }
    }
    return current;
  };
}

/**
 * The value a JSONPath selects: the single match, an array when it selects several, undefined
 * when it selects none or is not a JSONPath jsonpath-plus can run without script evaluation.
 */
export function valueAtJsonPath(root: unknown, path: string): unknown {
  let found: unknown[];
  try {
    found = JSONPath<unknown[]>({ path, json: root as object, eval: false, wrap: true });
  } catch {
    return undefined;
  }
  if (!Array.isArray(found) || found.length === 0) return undefined;
  return found.length === 1 ? found[0] : found;
}
