import { Ajv, type ValidateFunction } from 'ajv';

/** The parts of a reply the check reads (a light-my-request response has them). */
export interface ReplyLike {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
}

/** The parts of an OpenAPI 3.0 document the check reads. */
interface DocumentLike {
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: unknown;
}

interface ResponseLike {
  readonly content?: Readonly<Record<string, { readonly schema?: unknown }>>;
}

const DOCUMENT_ID = 'urn:triad:openapi-document';

/**
 * Checks real replies against an OpenAPI 3.0 document, so a test proves the document tells the
 * truth: `check('GET', '/things/{id}', reply)` answers the list of disagreements (empty when the
 * reply's status is documented for that operation, its media type is listed, and a JSON body
 * matches the schema, shared components included). Test helper; OpenAPI-only keywords are ignored.
 */
export function createOpenApiReplyCheck(
  document: DocumentLike,
): (method: string, path: string, reply: ReplyLike) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  const compiled = new Map<unknown, ValidateFunction>();
  return (method, path, reply) => {
    const operation = document.paths?.[path]?.[method.toLowerCase()];
    if (typeof operation !== 'object' || operation === null) return [`${method} ${path} is not documented`];
    const responses = (operation as { responses?: Readonly<Record<string, ResponseLike>> }).responses ?? {};
    const response = responses[String(reply.statusCode)] ?? responses.default;
    if (!response) return [`${method} ${path}: status ${reply.statusCode} is not documented`];
    const header = reply.headers['content-type'];
    const contentType = typeof header === 'string' ? header : '';
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!response.content) {
      return reply.body === '' ? [] : [`${method} ${path} ${reply.statusCode}: a body is sent, none documented`];
    }
    const media = response.content[mediaType];
    if (!media) {
      const listed = Object.keys(response.content).join(', ');
      return [`${method} ${path} ${reply.statusCode}: ${mediaType || '(no type)'} is not listed (${listed})`];
    }
    if (media.schema === undefined || !/[/+]json$/.test(mediaType)) return [];
    let validate = compiled.get(media.schema);
    if (!validate) {
      validate = ajv.compile(rebaseRefs(media.schema) as object);
      compiled.set(media.schema, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch {
      return [`${method} ${path} ${reply.statusCode}: the body is not JSON`];
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${path} ${reply.statusCode}: ${e.instancePath || '(root)'} ${e.message ?? e.keyword}`,
    );
  };
}

/** Points `#/components/...` references at the registered document. */
function rebaseRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebaseRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? [key, `${DOCUMENT_ID}${value}`]
        : [key, rebaseRefs(value)],
    ),
  );
}
