/** One violation of a route schema, as listed in a `SVC_ERR_REQUEST_VALIDATION` problem. */
export interface RequestViolation {
  /** Which part of the request: `body`, `querystring`, `params` or `headers`. */
  readonly in: string;
  /** JSON Pointer (RFC 6901) of the offending value inside that part; for a missing property, where it belongs. */
  readonly pointer: string;
  /** The JSON Schema keyword that failed (`required`, `pattern`, `maximum`...). */
  readonly keyword: string;
  readonly message: string;
}

/** The ajv error fields this module reads. */
interface AjvLikeError {
  readonly instancePath?: string;
  readonly keyword?: string;
  readonly message?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** Turns the ajv errors Fastify attaches to a validation error into violations with JSON pointers. */
export function toRequestViolations(errors: readonly AjvLikeError[], part: string): RequestViolation[] {
  return errors.map((error) => {
    let pointer = error.instancePath ?? '';
    const params = error.params ?? {};
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      pointer += '/' + escapePointer(params.missingProperty);
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      pointer += '/' + escapePointer(params.additionalProperty);
    }
    return { in: part, pointer, keyword: error.keyword ?? 'unknown', message: describe(error, params) };
  });
}

function describe(error: AjvLikeError, params: Readonly<Record<string, unknown>>): string {
  const base = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') return `is not an allowed property (${base})`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    return `${base}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return base;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
