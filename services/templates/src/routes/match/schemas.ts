import { errorResponses, PROBLEM_ERROR_BODY } from '@triad/service-kit';
import { templateSummarySchema } from '../../presenters/template-presenter.js';

const hexId = (what: string) =>
  ({
    type: 'string',
    pattern: '^(0[xX])?[0-9A-Fa-f]{1,16}$',
    description: `${what}, hexadecimal text such as 0x002A`,
  }) as const;

export const matchSchema = {
  tags: ['matching'],
  operationId: 'matchTemplates',
  summary: 'Find the templates whose rangerFilter accepts a discovered device',
  description:
    'A template matches when it declares at least one filter and every filter it declares finds a match ' +
    '(unanchored, RE2 semantics) in the device field of the same name; a declared filter whose field the device ' +
    'did not send fails. Every matching version is returned, ordered by templateId and newest version first; ' +
    '`latest` marks the newest version of each id.',
  body: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      deviceID: hexId('Fieldbus device identification'),
      vendorID: hexId('Fieldbus manufacturer identification'),
      description: { type: 'string', maxLength: 2048, description: 'SNMP sysDescr' },
    },
  },
  response: {
    200: {
      description: 'Every matching template version',
      type: 'object',
      additionalProperties: false,
      required: ['items'],
      properties: { items: { type: 'array', items: templateSummarySchema } },
    },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Invalid device description, or a body that is not well-formed JSON',
      413: 'Body larger than the body limit',
      415: 'Not JSON',
      500: true,
    }),
  },
} as const;
