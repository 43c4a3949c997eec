/** Route schemas of `/api/bookmark` (also the OpenAPI description). */
import { BODY_ERRORS, errorResponses } from '../shared-schemas.js';

const tags = ['bookmarks'];
const title = { type: 'string', minLength: 1, maxLength: 255 } as const;

const bookmark = {
  type: 'object',
  required: ['title', 'url'],
  additionalProperties: false,
  properties: { title, url: { type: 'string', minLength: 1, maxLength: 2048 } },
} as const;
const setBody = {
  type: 'object',
  required: ['bookmarks'],
  additionalProperties: false,
  properties: { bookmarks: { type: 'array', maxItems: 500, items: bookmark } },
} as const;
const deleteBody = {
  type: 'object',
  required: ['bookmarks'],
  additionalProperties: false,
  properties: {
    bookmarks: {
      type: 'array',
      maxItems: 500,
      items: { type: 'object', required: ['title'], properties: { title, url: { type: 'string', maxLength: 2048 } } },
    },
  },
} as const;
const allBookmarks = {
  200: {
    description: 'Every stored bookmark',
    type: 'object',
    required: ['bookmarks'],
    properties: {
      bookmarks: {
        type: 'array',
        items: {
          type: 'object',
          required: ['title', 'url'],
          properties: { title: { type: 'string' }, url: { type: 'string' } },
        },
      },
    },
  },
} as const;

export const listBookmarksSchema = {
  tags,
  operationId: 'listBookmarks',
  summary: 'Every bookmark',
  response: { ...allBookmarks, ...errorResponses() },
} as const;
export const createBookmarksSchema = {
  tags,
  operationId: 'createBookmarks',
  summary: 'Creates entries (existing titles unchanged)',
  body: setBody,
  response: { ...allBookmarks, ...errorResponses(...BODY_ERRORS) },
} as const;
export const saveBookmarksSchema = {
  tags,
  operationId: 'saveBookmarks',
  summary: 'Updates or creates entries',
  body: setBody,
  response: { ...allBookmarks, ...errorResponses(...BODY_ERRORS) },
} as const;
export const deleteBookmarksSchema = {
  tags,
  operationId: 'deleteBookmarks',
  summary: 'Deletes entries by title',
  body: deleteBody,
  response: { ...allBookmarks, ...errorResponses(...BODY_ERRORS) },
} as const;
