import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SchemaTypedApp } from '@triad/service-kit';
import { NODE_LEVEL_SOURCE } from '../../model/alarm-record.js';
import { nmError } from '../../errors.js';
import { parseEventId } from '../../model/erlang-terms.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentAlarmList } from '../../presenters/alarm-presenter.js';
import * as s from './schemas.js';

type Scope = { kind: 'all' } | { kind: 'node'; id: string } | { kind: 'family'; id: string };

/** `/api/alarm*`: lists (newest first, tag-filtered, paged backwards by eid), sources and actions. */
export function alarmRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
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

  const list = async (
    request: FastifyRequest,
    query: s.ListQuery,
    reply: FastifyReply,
    scope: Scope,
    previous: boolean,
  ) => {
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

  const read = { access: 'read' } as const;
  app.get('/alarm', { schema: s.listAlarmsSchema, config: read }, (r, reply) =>
    list(r, r.query, reply, { kind: 'all' }, false),
  );
  app.get('/alarm/previous/all', { schema: s.listPreviousAlarmsSchema, config: read }, (r, reply) =>
    list(r, r.query, reply, { kind: 'all' }, true),
  );
  app.get('/alarm/node/:node_id', { schema: s.listNodeAlarmsSchema, config: read }, (r, reply) =>
    list(r, r.query, reply, { kind: 'node', id: r.params.node_id }, false),
  );
  app.get('/alarm/previous/node/:node_id', { schema: s.listPreviousNodeAlarmsSchema, config: read }, (r, reply) =>
    list(r, r.query, reply, { kind: 'node', id: r.params.node_id }, true),
  );
  app.get('/alarm/node-family/:node_family_id', { schema: s.listFamilyAlarmsSchema, config: read }, (r, reply) =>
    list(r, r.query, reply, { kind: 'family', id: r.params.node_family_id }, false),
  );
  app.get(
    '/alarm/previous/node-family/:node_family_id',
    { schema: s.listPreviousFamilyAlarmsSchema, config: read },
    (r, reply) => list(r, r.query, reply, { kind: 'family', id: r.params.node_family_id }, true),
  );
  app.get('/alarm/source', { schema: s.listSourcesSchema, config: read }, () => sources({ kind: 'all' }));
  app.get('/alarm/source/node/:node_id', { schema: s.listNodeSourcesSchema, config: read }, (r) =>
    sources({ kind: 'node', id: r.params.node_id }),
  );
  app.get('/alarm/source/node-family/:node_family_id', { schema: s.listFamilySourcesSchema, config: read }, (r) =>
    sources({ kind: 'family', id: r.params.node_family_id }),
  );

  const actor = (request: FastifyRequest, body: s.ActionBody) => ({
    alarmId: body.alarmId,
    alarmSrc: body.alarmSrc,
    user: request.nmUser.authenticated ? request.nmUser.username : body.userId,
  });
  const write = { access: 'write' } as const;
  app.post('/alarm/acknowledge', { schema: s.acknowledgeSchema, config: write }, async (r) => {
    await core.alarms.acknowledge(actor(r, r.body));
    return {};
  });
  app.post('/alarm/unacknowledge', { schema: s.unacknowledgeSchema, config: write }, async (r) => {
    await core.alarms.unacknowledge(actor(r, r.body));
    return {};
  });
  app.post('/alarm/clear', { schema: s.clearSchema, config: write }, async (r) => {
    await core.alarms.clearByUser(actor(r, r.body));
    return {};
  });
  app.post('/alarm/comment', { schema: s.commentSchema, config: write }, async (r) => {
    await core.alarms.comment(actor(r, r.body), r.body.comment);
    return {};
  });
  done();
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
