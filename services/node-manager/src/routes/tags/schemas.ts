/** Route schemas of `/api/tags*` (also the OpenAPI description). */
import { BODY_ERRORS, errorResponses } from '../shared-schemas.js';

const tags = ['tags'];
const userTags = {
  200: {
    description: 'The tags filtering the user\'s view, or the string "all"',
    oneOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'string', enum: ['all'] },
    ],
  },
} as const;

export const listTagsSchema = {
  tags,
  operationId: 'listTags',
  summary: 'Known tags',
  response: { 200: { description: 'Sorted', type: 'array', items: { type: 'string' } }, ...errorResponses() },
} as const;
export const currentUserTagsSchema = {
  tags,
  operationId: 'currentUserTags',
  summary: "The current user's tags or all",
  response: { ...userTags, ...errorResponses() },
} as const;
export const userTagsSchema = {
  tags,
  operationId: 'userTags',
  summary: "A user's tags or all (admin or that user)",
  params: { type: 'object', properties: { username: { type: 'string', maxLength: 64 } } },
  response: { ...userTags, ...errorResponses() },
} as const;
export const setUserTagsSchema = {
  tags,
  operationId: 'setUserTags',
  summary: "Sets a user's tags (admin or that user)",
  body: {
    type: 'object',
    required: ['UserName', 'tags'],
    additionalProperties: false,
    properties: {
      UserName: { type: 'string', maxLength: 64 },
      // Checked by UserCommands.setTags: a schema union would let the array coercion turn "x" into ["x"].
      tags: { description: 'a list of tags, or the string "all" to switch filtering off' },
    },
  },
  response: {
    200: { description: 'The string "ok"', type: 'string', enum: ['ok'] },
    ...errorResponses(...BODY_ERRORS),
  },
} as const;
