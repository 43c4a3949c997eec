import type { FastifyInstance } from 'fastify';
import {
  errorResponse,
  errorResponses,
  PROBLEM_ERROR_BODY,
  withResponseHeaders,
  type OpenApiErrorResponse,
} from '@triad/service-kit';
import { LANGUAGES } from '../model/article.js';
import {
  CONTENT_MEDIA_TYPE,
  DEFAULT_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  REQUISITIONER_PATTERN,
} from '../http/media-types.js';

/** Names of the shared wire schemas. */
export type WireSchemaName =
  | 'Decimal'
  | 'Link'
  | 'Links'
  | 'Status'
  | 'StringWithLanguage'
  | 'Money'
  | 'Price'
  | 'Mime'
  | 'MimeWithLanguage'
  | 'ArticleFeatures';

/** `{$ref}` to one of the shared wire schemas below (`#/components/schemas/<name>` in the document). */
export const ref = (name: WireSchemaName) => ({ $ref: `${name}#` }) as const;

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const arrayOf = (items: object) => ({ type: 'array', items }) as const;
const object = (required: readonly string[], properties: Readonly<Record<string, object>>, description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  required,
  properties,
});

/**
 * The content API's shared wire shapes, added to the app once (`addWireSchemas`) and named by
 * `$id` in the OpenAPI document, so client generators make one type each.
 */
const wireSchemas: Readonly<Record<WireSchemaName, object>> = {
  Decimal: object(
    ['value', 'decimalDigits'],
    { value: integer, decimalDigits: integer },
    'value / 10^decimalDigits (both always present)',
  ),
  Link: object(['href', 'mediaType', 'method', 'rel'], {
    href: { type: 'string', description: 'absolute URL; carries hash when the content version is known' },
    mediaType: { type: 'string', enum: [CONTENT_MEDIA_TYPE] },
    method: { type: 'string', enum: ['GET'] },
    rel: string,
  }),
  Links: object(['links'], { links: arrayOf(ref('Link')) }, 'hypermedia links (`_schema`)'),
  Status: object(['timeMs'], { timeMs: { type: 'integer', description: 'time spent on the request, ms' } }),
  StringWithLanguage: object(['lang', 'value'], { lang: { type: 'string', enum: [...LANGUAGES] }, value: string }),
  Money: object(['amount', 'currency'], { amount: ref('Decimal'), currency: string }),
  Price: object(['priceType', 'amount', 'currency', 'tax'], {
    priceType: { type: 'string', enum: ['NET_CUSTOMER', 'NET_INCL_SPECIAL_TAX'] },
    amount: ref('Decimal'),
    currency: string,
    tax: { ...ref('Decimal'), description: 'VAT rate, not included in the amount' },
  }),
  Mime: object(
    ['mimeType', 'href', 'purpose'],
    {
      mimeType: string,
      href: { type: 'string', description: 'absolute when the catalog gave a MIME_ROOT' },
      description: string,
      purpose: {
        type: 'string',
        description:
          'normal, thumbnail, detail, data_sheet, safety_data_sheet, logo, icon, others (BMEcat MIME_PURPOSE)',
      },
      alt: { type: 'string', description: 'alternative text (BMEcat MIME_ALT)' },
    },
    'a media file: image, data sheet, safety data sheet ...',
  ),
  MimeWithLanguage: object(['mimeType', 'href', 'description', 'purpose', 'alt'], {
    mimeType: string,
    href: arrayOf(ref('StringWithLanguage')),
    description: arrayOf(ref('StringWithLanguage')),
    purpose: string,
    alt: arrayOf(ref('StringWithLanguage')),
  }),
  ArticleFeatures: object(['features', 'reference'], {
    features: arrayOf(
      object(['name', 'values'], {
        lang: { type: 'string', enum: [...LANGUAGES] },
        name: string,
        values: arrayOf(string),
        unit: string,
        order: integer,
        featureId: {
          type: 'string',
          description: "extension: the id of the feature's definition (BMEcat FT_ID, such as an ECLASS IRDI)",
        },
      }),
    ),
    reference: object(['systemName', 'groupId'], {
      systemName: {
        type: 'string',
        description: 'normalised (ECLASS-5.1, ETIM-7.0, UNSPSC-9); `none` for features without a system',
      },
      groupId: string,
      groupName: { type: 'string', description: "extension: the group's name as the catalog gives it" },
      groupId2: {
        type: 'string',
        description: "extension: the group's id in a second form (REFERENCE_FEATURE_GROUP_ID2)",
      },
    }),
  }),
} as const;

/** Adds the shared wire schemas to `app` (once, before routes that refer to them). */
export function addWireSchemas(app: FastifyInstance): void {
  for (const [name, schema] of Object.entries(wireSchemas)) app.addSchema({ $id: name, title: name, ...schema });
}

/** The requisitioner header every `/api` call carries (checked by the protocol hook). */
export const requisitionerHeaders = {
  type: 'object',
  required: ['x-svc-requisitioner-id'],
  properties: {
    'x-svc-requisitioner-id': {
      type: 'string',
      pattern: REQUISITIONER_PATTERN.source,
      description: 'Identifies the end user; unique per end user across the tenant',
    },
  },
} as const;

/** `hash`: the content version a request is pinned to. */
export const hashParameter = {
  type: 'string',
  description:
    'Content version (from a link). The current version makes the reply cacheable as immutable; ' +
    'any other value is refused with 400 invalid-query-param.',
} as const;

/** A 200 reply in the API's media type. */
export function contentReply(description: string, schema: object) {
  return { description, content: { [CONTENT_MEDIA_TYPE]: { schema } } } as const;
}

/** A 200 reply of a versioned resource: as `contentReply`, with the `Cache-Control` that `hash` decides. */
export function cachedContentReply(description: string, schema: object) {
  return withResponseHeaders(contentReply(description, schema), {
    'Cache-Control': {
      type: 'string',
      description: `${DEFAULT_CACHE_CONTROL}; ${IMMUTABLE_CACHE_CONTROL} when hash names the current content version`,
    },
  });
}

const queryParamViolation = object(['path', 'code'], {
  path: { type: 'string', description: 'JSON pointer into the query, e.g. #/limit' },
  code: { type: 'string', description: 'TYPE, MINIMUM, MAXIMUM or UNKNOWN (treat unknown codes as UNKNOWN)' },
  description: string,
  limit: { type: 'integer', description: 'the bound a MINIMUM or MAXIMUM error broke' },
});

/**
 * The error responses of an `/api` operation: 400 (invalid query parameter, `hash` or
 * requisitioner id), 401 (token missing, bad or expired; `WWW-Authenticate: Bearer`), 403 (token
 * without the required scope), 406 (`Accept` not exactly the API's media type), 500, plus `more`
 * (e.g. 404). All problem+json.
 */
export function contentErrorResponses(
  more: Readonly<Record<number, string>> = {},
): Record<number, OpenApiErrorResponse> {
  return {
    400: errorResponse(
      PROBLEM_ERROR_BODY,
      'An invalid query parameter (type `<errorsBase>/errors/invalid-query-param` with `queryParam` and ' +
        '`errors`), a `hash` that is not the current content version, or a missing or invalid requisitioner id',
      { queryParam: string, errors: arrayOf(queryParamViolation) },
    ),
    401: withResponseHeaders(errorResponse(PROBLEM_ERROR_BODY, 'The bearer token is missing, not valid or expired'), {
      'WWW-Authenticate': { type: 'string', description: 'Bearer realm="content-api", error="invalid_token" ...' },
    }),
    ...errorResponses(PROBLEM_ERROR_BODY, {
      403: 'The token lacks the required scope',
      406: `Accept is not exactly ${CONTENT_MEDIA_TYPE} (wildcards are refused)`,
      500: true,
      ...more,
    }),
  };
}
