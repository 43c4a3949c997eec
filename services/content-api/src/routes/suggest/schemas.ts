import { MAX_SUGGEST_Q_LENGTH, SUGGEST_LIMIT } from '../../search/suggest-words.js';
import {
  cachedContentReply,
  contentErrorResponses,
  hashParameter,
  ref,
  requisitionerHeaders,
} from '../wire-schemas.js';

const suggestion = {
  type: 'object',
  required: ['text', 'hits'],
  properties: {
    text: { type: 'string', description: 'q with its last word replaced by the suggested word (indexed spelling)' },
    hits: { type: 'integer', minimum: 1, description: "the shops' articles the suggested word occurs in" },
  },
} as const;

export const suggestSchema = {
  tags: ['articles'],
  operationId: 'suggestWords',
  summary: 'Completions and corrections of the last word a buyer typed, with their hit counts',
  description:
    "For search as you type: the shops' words the last word of q begins (from 2 letters, the most frequent " +
    'first) and the words within the typo rule of search (1 edit from 5 letters, 2 from 9, none for words with ' +
    'digits), nearest first, then the most frequent. Replies `Cache-Control: private, max-age=300`, or immutable ' +
    'caching when `hash` names the current content version of the shops asked for. Unknown parameters are ignored.',
  headers: requisitionerHeaders,
  querystring: {
    type: 'object',
    properties: {
      q: {
        type: 'string',
        maxLength: MAX_SUGGEST_Q_LENGTH,
        description: 'the text in the search box; its last word is completed and corrected, the rest kept',
      },
      businessShopId: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'only the words of these shops (as for a search); absent: every shop',
      },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: SUGGEST_LIMIT.maximum,
        default: SUGGEST_LIMIT.default,
        description: 'most completions, and most corrections',
      },
      hash: hashParameter,
    },
  },
  response: {
    200: cachedContentReply('The suggestions', {
      type: 'object',
      required: ['completions', 'corrections', '_status'],
      properties: {
        completions: {
          type: 'array',
          items: suggestion,
          description: 'words the last word begins (itself included when indexed), the most frequent first',
        },
        corrections: {
          type: 'array',
          items: suggestion,
          description: 'words within the typo rule of the last word, nearest first, then the most frequent',
        },
        _status: ref('Status'),
      },
    }),
    ...contentErrorResponses({ 404: 'No business shop has this id' }),
  },
} as const;
