import { contentErrorResponses, contentReply, ref, requisitionerHeaders } from '../wire-schemas.js';

/** `GET /api`. */
export const entrySchema = {
  tags: ['entry'],
  operationId: 'getEntryPoint',
  summary: 'Entry point: links to the other resources',
  description:
    'Links `self`, `bshops` and `business-shops` (the same shop list), `articles` and `article-by-id` ' +
    '(a URI template with `{articleId}`).',
  headers: requisitionerHeaders,
  response: {
    200: contentReply('The entry resource', {
      type: 'object',
      required: ['_status', '_schema'],
      properties: { _status: ref('Status'), _schema: ref('Links') },
    }),
    ...contentErrorResponses(),
  },
} as const;
