/**
 * The unit every check of the toolkit reports: one problem found in one document, at one place.
 *
 * `path` is a JSON Pointer (RFC 6901) into the document (`""` is the root,
 * `/datapointSets/0/datapoints/3/commonConfig/datapointId` a leaf); `line` and `column` are
 * 1-based and point at the value (or at the key, when the problem is the key itself).
 */
export interface Problem {
  /** Stable code from the package's error catalogue, e.g. `DT_ERR_SCHEMA_PATTERN`. */
  readonly code: string;
  /** `error` makes the document invalid; `warning` does not (unless validation runs strict). */
  readonly severity: ProblemSeverity;
  /** JSON Pointer of the offending value. */
  readonly path: string;
  /** 1-based line of the offending value (or key). 0 when the input has no text (library callers). */
  readonly line: number;
  /** 1-based column of the offending value (or key). 0 when unknown. */
  readonly column: number;
  /** One sentence a person can act on: what is wrong, what was found, what is allowed. */
  readonly message: string;
  /** The offending value, when it is short enough to repeat (strings cut at 80 characters). */
  readonly found?: unknown;
  /** What the rule allows, stated as the real constraint. */
  readonly allowed?: string;
  /** A concrete fix, e.g. the intended key for a typo. */
  readonly suggestion?: string;
}

export type ProblemSeverity = 'error' | 'warning';

/** The outcome of validating one document. `valid` is true when `errors` is empty. */
export interface ValidationResult {
  readonly valid: boolean;
  /** File name as given by the caller (`-` or `<stdin>` for standard input). */
  readonly file: string;
  readonly errors: readonly Problem[];
  readonly warnings: readonly Problem[];
}

/** A path into a parsed document: object keys and array indexes, root first. */
export type DocumentPath = readonly (string | number)[];

/** Encodes a path as a JSON Pointer (RFC 6901). */
export function toJsonPointer(path: DocumentPath): string {
  let out = '';
  for (const segment of path) {
    out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return out;
}

/** Decodes a JSON Pointer into path segments (numbers stay strings; callers index by either). */
export function fromJsonPointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new TypeError(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
