import { errorResponse, errorResponses, PROBLEM_ERROR_BODY, withResponseHeaders } from '@triad/service-kit';
import { problemEntrySchema } from '../../presenters/problem-presenter.js';
import { templateSummarySchema } from '../../presenters/template-presenter.js';
import { templateSourceBodySchema } from '../../http/source-body-parsers.js';

/** Largest page of a listing. */
export const MAX_PAGE = 200;

const templateIdParam = {
  type: 'string',
  pattern: '^[A-Za-z0-9_ -]{1,80}$',
  description: 'templateId (letters, digits, "-", "_" and spaces; URL-encode spaces)',
} as const;
const templateVersionParam = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'templateVersion, e.g. 1.5.2',
} as const;

const idParams = {
  type: 'object',
  required: ['templateId'],
  additionalProperties: false,
  properties: { templateId: templateIdParam },
} as const;
const versionParams = {
  type: 'object',
  required: ['templateId', 'templateVersion'],
  additionalProperties: false,
  properties: { templateId: templateIdParam, templateVersion: templateVersionParam },
} as const;

const invalidTemplateResponse = errorResponse(
  PROBLEM_ERROR_BODY,
  'The template is not valid; nothing was stored (TPL_ERR_TEMPLATE_INVALID)',
  {
    errors: { type: 'array', items: problemEntrySchema },
    warnings: { type: 'array', items: problemEntrySchema },
  },
);

/** Errors of a template write (POST and PUT). */
const writeErrors = {
  400: 'Malformed request: invalid query or parameters, JSON syntax, nesting too deep',
  413: 'Body larger than the source body limit',
  415: 'Not JSON or YAML',
  500: true,
} as const;

const writeQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { strict: { type: 'boolean', default: false, description: 'count warnings as errors' } },
} as const;

const writeReply = {
  type: 'object',
  additionalProperties: false,
  required: ['created', 'template', 'warnings'],
  properties: {
    created: { type: 'boolean', description: 'false when an existing version was replaced' },
    template: templateSummarySchema,
    warnings: { type: 'array', items: problemEntrySchema },
  },
} as const;

/** A created version: the write reply with `Location`. */
const createdReply = withResponseHeaders(
  { ...writeReply, description: 'Created; Location names the new version' },
  { Location: { type: 'string', description: 'path of the new version, /templates/{templateId}/{templateVersion}' } },
);

export const listTemplatesSchema = {
  tags: ['templates'],
  operationId: 'listTemplates',
  summary: 'List stored template versions',
  description: 'Ordered by templateId (code point order), then newest version first. Filters combine with AND.',
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      prefix: { type: 'string', minLength: 1, maxLength: 80, description: 'templateId starts with (case-sensitive)' },
      q: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'text in templateId, alias or description (ignoring case)',
      },
      originType: {
        type: 'string',
        pattern: '^[a-zA-Z0-9-]{1,80}$',
        description: 'the version declares or uses this originType',
      },
      latest: { type: 'boolean', default: false, description: 'only the newest version of each templateId' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 50 },
      offset: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
    },
  },
  response: {
    200: {
      description: 'One page of template versions',
      type: 'object',
      additionalProperties: false,
      required: ['items', 'total', 'limit', 'offset'],
      properties: {
        items: { type: 'array', items: templateSummarySchema },
        total: { type: 'integer', description: 'versions matching the filters, over all pages' },
        limit: { type: 'integer' },
        offset: { type: 'integer' },
      },
    },
    ...errorResponses(PROBLEM_ERROR_BODY, { 400: 'Invalid query', 500: true }),
  },
} as const;

export const createTemplateSchema = {
  tags: ['templates'],
  operationId: 'createTemplate',
  summary: 'Store a new template version',
  description:
    'templateId and templateVersion come from the document. A stored version is refused (409); PUT replaces.',
  querystring: writeQuery,
  body: templateSourceBodySchema,
  response: {
    201: createdReply,
    ...errorResponses(PROBLEM_ERROR_BODY, { ...writeErrors, 409: 'The version exists (TPL_ERR_TEMPLATE_EXISTS)' }),
    422: invalidTemplateResponse,
  },
} as const;

export const putTemplateSchema = {
  tags: ['templates'],
  operationId: 'putTemplateVersion',
  summary: 'Create or replace one template version',
  description:
    "The document's templateId and templateVersion must equal the URL's (else 409 TPL_ERR_IDENTITY_MISMATCH).",
  params: versionParams,
  querystring: writeQuery,
  body: templateSourceBodySchema,
  response: {
    200: { ...writeReply, description: 'Replaced' },
    201: createdReply,
    ...errorResponses(PROBLEM_ERROR_BODY, {
      ...writeErrors,
      409: 'The document names another template (TPL_ERR_IDENTITY_MISMATCH)',
    }),
    422: invalidTemplateResponse,
  },
} as const;

export const readTemplateSchema = {
  tags: ['templates'],
  operationId: 'getTemplateVersion',
  summary: 'Read one template version',
  description:
    'JSON document by default. `?format=source`, or an Accept header preferring a YAML type for a template ' +
    'stored as YAML, returns the source text as sent, with its media type. Send the ETag back in ' +
    'If-None-Match to get 304 Not Modified while the version is unchanged.',
  params: versionParams,
  headers: {
    type: 'object',
    properties: {
      'if-none-match': { type: 'string', description: 'ETags of representations the client holds, or *' },
    },
  },
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: { format: { type: 'string', enum: ['json', 'source'] } },
  },
  response: {
    200: withResponseHeaders(
      {
        description: 'The template',
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: true, description: 'the template document' },
          },
          'application/yaml': { schema: { type: 'string', description: 'the YAML source as stored' } },
        },
      },
      {
        ETag: {
          type: 'string',
          description: 'the SHA-256 of the stored source, quoted; with -json after it for the JSON document',
        },
        'Last-Modified': { type: 'string', description: 'when the version was last written (HTTP date)' },
        Vary: { type: 'string', enum: ['Accept'], description: 'when the type was negotiated from Accept' },
      },
    ),
    304: withResponseHeaders(
      { description: 'If-None-Match names the ETag of the representation asked for (or is *)', type: 'null' },
      {
        ETag: { type: 'string', description: 'the same ETag as a 200 would carry' },
        'Last-Modified': { type: 'string', description: 'when the version was last written (HTTP date)' },
      },
    ),
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Invalid templateId, templateVersion or format',
      404: 'No such template version',
      406: 'Accept names no available type (JSON, or YAML for a template stored as YAML)',
      500: true,
    }),
  },
} as const;

export const deleteTemplateSchema = {
  tags: ['templates'],
  operationId: 'deleteTemplateVersion',
  summary: 'Delete one template version',
  params: versionParams,
  response: {
    204: { description: 'Deleted', type: 'null' },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Invalid templateId or templateVersion',
      404: 'No such template version',
      500: true,
    }),
  },
} as const;

export const listVersionsSchema = {
  tags: ['templates'],
  operationId: 'listTemplateVersions',
  summary: 'List the versions of one templateId, newest first',
  params: idParams,
  response: {
    200: {
      description: 'Every version, newest first',
      type: 'object',
      additionalProperties: false,
      required: ['templateId', 'items'],
      properties: { templateId: { type: 'string' }, items: { type: 'array', items: templateSummarySchema } },
    },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Invalid templateId',
      404: 'No version of this templateId',
      500: true,
    }),
  },
} as const;

export const deleteAllVersionsSchema = {
  tags: ['templates'],
  operationId: 'deleteTemplateVersions',
  summary: 'Delete every version of one templateId',
  params: idParams,
  response: {
    204: { description: 'Deleted', type: 'null' },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Invalid templateId',
      404: 'No version of this templateId',
      500: true,
    }),
  },
} as const;
