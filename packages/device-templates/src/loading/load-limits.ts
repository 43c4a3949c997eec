/** Bounds on what `loadDocument` accepts; a document beyond any of them is refused. */
export interface LoadLimits {
  /** Largest input accepted, in bytes (UTF-8 bytes for text input). */
  readonly maxBytes: number;
  /** Deepest nesting of objects and arrays; the root object or array is level 1. */
  readonly maxDepth: number;
  /**
   * Most nodes YAML aliases may add when expanded: each `*alias` counts the size of the node it
   * repeats (1 for a scalar, 1 + its content for a collection, nested aliases included).
   */
  readonly maxAliasNodes: number;
}

/** The limits used when the caller gives none. Frozen. */
export const DEFAULT_LOAD_LIMITS: LoadLimits = Object.freeze({
  maxBytes: 32 * 1024 * 1024, // 32 MiB
  maxDepth: 64, // levels of objects/arrays; real templates use about 8
  maxAliasNodes: 100_000, // expanded nodes; a billion-laughs file asks for billions
});

/**
 * Merges the caller's limits over the defaults. Throws a `RangeError` (a programming error, not
 * a problem in the document) when a given limit is not a positive integer or `Infinity`.
 */
export function resolveLoadLimits(limits: Partial<LoadLimits> | undefined): LoadLimits {
  if (limits === undefined) return DEFAULT_LOAD_LIMITS;
  const merged = { ...DEFAULT_LOAD_LIMITS };
  for (const name of Object.keys(DEFAULT_LOAD_LIMITS) as (keyof LoadLimits)[]) {
    const given = limits[name];
    if (given === undefined) continue;
    if (!(given === Number.POSITIVE_INFINITY || (Number.isInteger(given) && given > 0))) {
      throw new RangeError(`limits.${name} must be a positive integer or Infinity, got ${String(given)}`);
    }
    merged[name] = given;
  }
  return Object.freeze(merged);
}
