import { errorResponses, PROBLEM_ERROR_BODY } from '@triad/service-kit';
import { templateSourceBodySchema } from '../../http/source-body-parsers.js';
import { validationReplySchema } from '../../presenters/validation-presenter.js';

export const validateSchema = {
  tags: ['validation'],
  operationId: 'validateTemplate',
  summary: 'Validate a template without storing it',
  description:
    'Always 200 for a readable request: an invalid document (including malformed JSON or YAML text) is the ' +
    'answer, with every error and its line and column.',
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: { strict: { type: 'boolean', default: false, description: 'count warnings as errors' } },
  },
  body: templateSourceBodySchema,
  response: {
    200: { ...validationReplySchema, description: 'The verdict, with every error and warning' },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Malformed request (e.g. JSON nested too deeply)',
      413: 'Body larger than the source body limit',
      415: 'Not JSON or YAML',
      422: 'The body is not UTF-8 text (TPL_ERR_TEMPLATE_INVALID with DT_ERR_LOAD_ENCODING and the byte offset)',
      500: true,
    }),
  },
} as const;
