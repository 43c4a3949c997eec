import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nmError } from '../../errors.js';
import { sendJson } from '../../http/send-json.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { authorizeSelfOrAdmin } from '../../policies/access-policy.js';
import { BUILT_IN_TAGS } from '../../repositories/tag-repository.js';
import { codePointOrder } from '../../repositories/user-repository.js';

const setBody = {
  type: 'object',
  required: ['UserName', 'tags'],
  additionalProperties: false,
  properties: {
    UserName: { type: 'string', maxLength: 64 },
    // Checked by UserCommands.setTags: a schema union would let the array coercion turn "x" into ["x"].
    tags: { description: 'a list of tags, or the string "all" to switch filtering off' },
  },
} as const;

/** `/api/tags`: known tags and the tags that filter each user's view. */
export async function tagRoutes(app: FastifyInstance, { core }: { core: NodeManagerCore }): Promise<void> {
  const tags = ['tags'];
  app.get('/', { schema: { tags, summary: 'Known tags' } }, async () =>
    [...new Set([...BUILT_IN_TAGS, ...(await core.tags.list())])].sort(codePointOrder),
  );

  const userTags = async (request: FastifyRequest, reply: FastifyReply, username: string) => {
    authorizeSelfOrAdmin(request.nmUser, username);
    const user = await core.users.users.find(username);
    if (!user) throw nmError('NM_ERR_USER_NOT_FOUND');
    return sendJson(reply, user.tags);
  };
  app.get(
    '/user',
    { schema: { tags, summary: "The current user's tags or all" }, config: { access: 'none' } },
    (r, reply) => userTags(r, reply, r.nmUser.username),
  );
  app.get<{ Params: { username: string } }>(
    '/user/:username',
    {
      schema: {
        tags,
        summary: "A user's tags or all",
        params: { type: 'object', properties: { username: { type: 'string', maxLength: 64 } } },
      },
      config: { access: 'none' },
    },
    (r, reply) => userTags(r, reply, r.params.username),
  );
  app.post<{ Body: { UserName: string; tags: 'all' | string[] } }>(
    '/user',
    { schema: { tags, summary: "Sets a user's tags (admin or that user)", body: setBody }, config: { access: 'none' } },
    async (r, reply) => {
      authorizeSelfOrAdmin(r.nmUser, r.body.UserName);
      await core.users.setTags(r.body.UserName, r.body.tags);
      if (r.body.tags !== 'all') await core.tags.remember(r.body.tags);
      return sendJson(reply, 'ok');
    },
  );
}
