import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NODE_LEVEL_SOURCE } from '../../alarms/alarm-commands.js';
import { presentAlarmList } from '../../alarms/alarm-presenter.js';
import { parseEventId } from '../../alarms/erlang-terms.js';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';

interface ListQuery {
  source?: string;
  limit?: number;
  tags?: string;
  eid?: string;
}

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: { type: 'string', minLength: 1, maxLength: 255 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 20 },
    tags: { type: 'string', maxLength: 2000 },
    eid: { type: 'string', maxLength: 64 },
  },
} as const;
const previousQuery = { ...listQuery, required: ['eid'] } as const;
const nodeParams = {
  type: 'object',
  required: ['node_id'],
  properties: { node_id: { type: 'string', maxLength: 64 } },
} as const;
const familyParams = {
  type: 'object',
  required: ['node_family_id'],
  properties: { node_family_id: { type: 'string', maxLength: 64 } },
} as const;
const actionBody = (extra: Record<string, unknown> = {}, required: string[] = []) =>
  ({
    type: 'object',
    required: ['userId', 'alarmId', 'alarmSrc', ...required],
    additionalProperties: false,
    properties: {
      userId: { type: 'string', maxLength: 64 },
      alarmId: { type: 'string', minLength: 1, maxLength: 1000 },
      alarmSrc: { type: 'string', minLength: 1, maxLength: 2000 },
      ...extra,
    },
  }) as const;

type Scope = { kind: 'all' } | { kind: 'node'; id: string } | { kind: 'family'; id: string };

/** `/api/alarm*`: lists (newest first, tag-filtered, paged backwards by eid), sources and actions. */
export async function alarmRoutes(app: FastifyInstance, { core }: { core: NodeManagerCore }): Promise<void> {
  const tags = ['alarms'];

  /** Node ids of a scope; unknown node or family ids are errors. */
  const nodeIdsOf = async (scope: Scope): Promise<string[] | undefined> => {
    if (scope.kind === 'all') return undefined;
    if (scope.kind === 'node') {
      if (!(await core.topologyStore.findNode(scope.id))) throw nmError('NM_ERR_NODE_NOT_FOUND');
      return [scope.id];
    }
    const family = await core.topologyStore.findFamily(scope.id);
    if (!family) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
    return [...family.nodes];
  };

  const list = async (request: FastifyRequest, reply: FastifyReply, scope: Scope, previous: boolean) => {
    const query = request.query as ListQuery;
    let beforeUs: number | undefined;
    if (previous) {
      beforeUs = parseEventId(query.eid ?? '');
      if (beforeUs === undefined) throw nmError('NM_ERR_BAD_EVENT_ID');
    }
    const alarms = await core.alarmStore.listPresented({
      ...(scope.kind === 'all' ? {} : { nodeIds: (await nodeIdsOf(scope)) ?? [] }),
      ...(query.source !== undefined ? { source: query.source } : {}),
      ...(beforeUs !== undefined ? { beforeUs } : {}),
      tags: effectiveTags(core, request, query.tags),
      limit: query.limit ?? 20,
    });
    // The stored texts are presentAlarm's output; joining them skips decoding and re-serialising.
    return reply.type('application/json; charset=utf-8').send(presentAlarmList(alarms));
  };

  const sources = async (scope: Scope) => {
    const found = await core.alarmStore.activeSources(await nodeIdsOf(scope));
    return { sources: [NODE_LEVEL_SOURCE, ...found.filter((s) => s !== NODE_LEVEL_SOURCE).sort()] };
  };

  app.get('/alarm', { schema: { tags, summary: 'The most recent alarms', querystring: listQuery } }, (r, reply) =>
    list(r, reply, { kind: 'all' }, false),
  );
  app.get(
    '/alarm/previous/all',
    { schema: { tags, summary: 'Alarms older than eid', querystring: previousQuery } },
    (r, reply) => list(r, reply, { kind: 'all' }, true),
  );
  app.get<{ Params: { node_id: string } }>(
    '/alarm/node/:node_id',
    { schema: { tags, summary: 'Alarms of a node', params: nodeParams, querystring: listQuery } },
    (r, reply) => list(r, reply, { kind: 'node', id: r.params.node_id }, false),
  );
  app.get<{ Params: { node_id: string } }>(
    '/alarm/previous/node/:node_id',
    { schema: { tags, summary: 'Alarms of a node older than eid', params: nodeParams, querystring: previousQuery } },
    (r, reply) => list(r, reply, { kind: 'node', id: r.params.node_id }, true),
  );
  app.get<{ Params: { node_family_id: string } }>(
    '/alarm/node-family/:node_family_id',
    { schema: { tags, summary: 'Alarms of the nodes of a family', params: familyParams, querystring: listQuery } },
    (r, reply) => list(r, reply, { kind: 'family', id: r.params.node_family_id }, false),
  );
  app.get<{ Params: { node_family_id: string } }>(
    '/alarm/previous/node-family/:node_family_id',
    {
      schema: { tags, summary: 'Alarms of a family older than eid', params: familyParams, querystring: previousQuery },
    },
    (r, reply) => list(r, reply, { kind: 'family', id: r.params.node_family_id }, true),
  );
  app.get('/alarm/source', { schema: { tags, summary: 'Usable source values' } }, () => sources({ kind: 'all' }));
  app.get<{ Params: { node_id: string } }>(
    '/alarm/source/node/:node_id',
    { schema: { tags, summary: 'Sources of a node', params: nodeParams } },
    (r) => sources({ kind: 'node', id: r.params.node_id }),
  );
  app.get<{ Params: { node_family_id: string } }>(
    '/alarm/source/node-family/:node_family_id',
    { schema: { tags, summary: 'Sources of a family', params: familyParams } },
    (r) => sources({ kind: 'family', id: r.params.node_family_id }),
  );

  type ActionBody = { userId: string; alarmId: string; alarmSrc: string; comment?: string };
  const actor = (request: FastifyRequest<{ Body: ActionBody }>) => ({
    alarmId: request.body.alarmId,
    alarmSrc: request.body.alarmSrc,
    user: request.nmUser.authenticated ? request.nmUser.username : request.body.userId,
  });
  app.post<{ Body: ActionBody }>(
    '/alarm/acknowledge',
    { schema: { tags, summary: 'new -> acknowledged', body: actionBody() } },
    async (r) => {
      await core.alarms.acknowledge(actor(r));
      return {};
    },
  );
  app.post<{ Body: ActionBody }>(
    '/alarm/unacknowledge',
    { schema: { tags, summary: 'acknowledged -> new', body: actionBody() } },
    async (r) => {
      await core.alarms.unacknowledge(actor(r));
      return {};
    },
  );
  app.post<{ Body: ActionBody }>(
    '/alarm/clear',
    { schema: { tags, summary: 'Removes the alarm from the lists', body: actionBody() } },
    async (r) => {
      await core.alarms.clearByUser(actor(r));
      return {};
    },
  );
  app.post<{ Body: ActionBody }>(
    '/alarm/comment',
    {
      schema: {
        tags,
        summary: 'Adds a comment',
        body: actionBody({ comment: { type: 'string', minLength: 1, maxLength: 4096 } }, ['comment']),
      },
    },
    async (r) => {
      await core.alarms.comment(actor(r), r.body.comment ?? '');
      return {};
    },
  );
}

/** `tags=` overrides; else the user's tags with authentication on, `default_user_tags` with it off. */
export function effectiveTags(
  core: NodeManagerCore,
  request: FastifyRequest,
  override: string | undefined,
): 'all' | readonly string[] {
  if (override !== undefined) {
    const list = override
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    return list.includes('all') ? 'all' : list;
  }
  return request.nmUser.authenticated ? request.nmUser.tags : core.defaultUserTags;
}
