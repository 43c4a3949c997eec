import { problemSchema } from '@triad/service-kit';
import { templateSourceBodySchema } from '../../documents/source-body-parsers.js';
import { validationReplySchema } from '../../presenters/validation-presenter.js';

export interface ValidateQuery {
  strict: boolean;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemSchema } },
});

export const validateSchema = {
  tags: ['validation'],
  summary: 'Validate a template without storing it',
  description:
    'Always 200 for a readable request: an invalid document (including malformed JSON or YAML text) is the answer, with every error and its line and column.',
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: { strict: { type: 'boolean', default: false, description: 'count warnings as errors' } },
  },
  body: templateSourceBodySchema,
  response: {
    200: validationReplySchema,
    400: problemResponse('Malformed request (e.g. JSON nested too deeply)'),
    413: problemResponse('Body too large'),
    415: problemResponse('Not JSON or YAML'),
  },
} as const;
