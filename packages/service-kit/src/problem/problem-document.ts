/** The `application/problem+json` media type. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Prefix of every problem `type` URI; the code follows (`urn:triad:problem:SVC_ERR_BODY_TOO_LARGE`). */
export const PROBLEM_TYPE_PREFIX = 'urn:triad:problem:';

/** The body of a problem reply (RFC 9457) as Triad sends it. */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  /**
   * The request path the problem occurred on; absent when the request could not be read or
   * routed (URI or headers too large, malformed), so the reply echoes nothing of it.
   */
  readonly instance?: string;
  /** Catalogue code (also the last part of `type`). */
  readonly code: string;
  /** The request id, as echoed in the `x-request-id` header and carried by the logs. */
  readonly requestId: string;
  readonly [extension: string]: unknown;
}

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId']);

/** Builds a problem document; extension members never replace the standard ones. */
export function buildProblemDocument(input: {
  code: string;
  status: number;
  title: string;
  detail?: string | undefined;
  instance?: string | undefined;
  requestId: string;
  extensions?: Readonly<Record<string, unknown>> | undefined;
}): ProblemDocument {
  const document: Record<string, unknown> = {
    type: PROBLEM_TYPE_PREFIX + input.code,
    title: input.title,
    status: input.status,
  };
  if (input.detail !== undefined) document.detail = input.detail;
  if (input.instance !== undefined) document.instance = input.instance;
  document.code = input.code;
  document.requestId = input.requestId;
  for (const [key, value] of Object.entries(input.extensions ?? {})) {
    if (!RESERVED.has(key) && value !== undefined) document[key] = value;
  }
  return document as ProblemDocument;
}

/**
 * JSON schema of a problem reply, for route `response` maps and OpenAPI. Extension members are
 * allowed; `errors` is described because validation problems carry it.
 */
export const problemSchema = Object.freeze({
  $id: 'triad-problem',
  type: 'object',
  description: 'RFC 9457 problem details (application/problem+json)',
  required: ['type', 'title', 'status', 'code', 'requestId'],
  properties: {
    type: { type: 'string', description: 'urn:triad:problem:<code>' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'request path' },
    code: { type: 'string', description: 'stable error code from the catalogue' },
    requestId: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  additionalProperties: true,
} as const);
