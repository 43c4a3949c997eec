import type { FastifyInstance } from 'fastify';
import type { NodeManagerCore } from '../../node-manager-core.js';
import type { Bookmark } from '../../repositories/bookmark-repository.js';

const bookmark = {
  type: 'object',
  required: ['title', 'url'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 255 },
    url: { type: 'string', minLength: 1, maxLength: 2048 },
  },
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
      items: {
        type: 'object',
        required: ['title'],
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 255 },
          url: { type: 'string', maxLength: 2048 },
        },
      },
    },
  },
} as const;

/** `/api/bookmark`: four verbs, each replying with the complete stored set. Titles identify bookmarks. */
export async function bookmarkRoutes(app: FastifyInstance, { core }: { core: NodeManagerCore }): Promise<void> {
  const tags = ['bookmarks'];
  const all = async () => ({ bookmarks: await core.bookmarks.list() });
  app.get('/', { schema: { tags, summary: 'Every bookmark' } }, all);
  app.put<{ Body: { bookmarks: Bookmark[] } }>(
    '/',
    { schema: { tags, summary: 'Creates entries (existing titles unchanged)', body: setBody } },
    async (r) => {
      await core.bookmarks.save(r.body.bookmarks, 'create');
      return all();
    },
  );
  app.post<{ Body: { bookmarks: Bookmark[] } }>(
    '/',
    { schema: { tags, summary: 'Updates or creates entries', body: setBody } },
    async (r) => {
      await core.bookmarks.save(r.body.bookmarks, 'upsert');
      return all();
    },
  );
  app.delete<{ Body: { bookmarks: { title: string }[] } }>(
    '/',
    { schema: { tags, summary: 'Deletes entries by title', body: deleteBody } },
    async (r) => {
      await core.bookmarks.remove(r.body.bookmarks.map((b) => b.title));
      return all();
    },
  );
}
