import type { SchemaTypedApp } from '@triad/service-kit';
import type { NodeManagerCore } from '../../node-manager-core.js';
import * as s from './schemas.js';

/** `/api/bookmark`: four verbs, each replying with the complete stored set. Titles identify bookmarks. */
export function bookmarkRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const all = async () => ({ bookmarks: await core.bookmarks.list() });
  app.get('', { schema: s.listBookmarksSchema, config: { access: 'read' } }, all);
  app.put('', { schema: s.createBookmarksSchema, config: { access: 'write' } }, async (r) => {
    await core.bookmarks.save(r.body.bookmarks, 'create');
    return all();
  });
  app.post('', { schema: s.saveBookmarksSchema, config: { access: 'write' } }, async (r) => {
    await core.bookmarks.save(r.body.bookmarks, 'upsert');
    return all();
  });
  app.delete('', { schema: s.deleteBookmarksSchema, config: { access: 'write' } }, async (r) => {
    await core.bookmarks.remove(r.body.bookmarks.map((b) => b.title));
    return all();
  });
  done();
}
