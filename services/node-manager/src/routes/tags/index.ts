import type { FastifyReply } from 'fastify';
import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import { sendJson } from '../../http/send-json.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { BUILT_IN_TAGS } from '../../repositories/tag-repository.js';
import { codePointOrder } from '../../repositories/user-repository.js';
import * as s from './schemas.js';

/** `/api/tags`: known tags and the tags that filter each user's view. */
export function tagRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  app.get('', { schema: s.listTagsSchema, config: { access: 'read' } }, async () =>
    [...new Set([...BUILT_IN_TAGS, ...(await core.tags.list())])].sort(codePointOrder),
  );

  const userTags = async (reply: FastifyReply, username: string) => {
    const user = await core.users.users.find(username);
    if (!user) throw nmError('NM_ERR_USER_NOT_FOUND');
    return sendJson(reply, user.tags);
  };
  app.get('/user', { schema: s.currentUserTagsSchema, config: { access: 'none' } }, (r, reply) =>
    userTags(reply, r.nmUser.username),
  );
  app.get(
    '/user/:username',
    { schema: s.userTagsSchema, config: { access: { selfOrAdmin: { in: 'params', name: 'username' } } } },
    // The username is optional: `/api/tags/user/` means the caller, like `/api/tags/user`.
    (r, reply) => {
      const { username = '' } = r.params;
      return userTags(reply, username === '' ? r.nmUser.username : username);
    },
  );
  app.post(
    '/user',
    {
      schema: s.setUserTagsSchema,
      // A user's tags are user data: refused while authentication is off, like the other user writes.
      config: { access: { selfOrAdmin: { in: 'body', name: 'UserName' } }, changesUsers: true },
    },
    async (r, reply) => {
      const tags = await core.users.setTags(r.body.UserName, r.body.tags);
      if (tags !== 'all') await core.tags.remember(tags);
      return sendJson(reply, 'ok');
    },
  );
  done();
}
