import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { parseChannelInput } from '../../notifications/channel-input.js';
import { authorizeSelfOrAdmin } from '../../policies/access-policy.js';
import { presentChannel, presentDelivery, presentSubscription } from '../../presenters/notification-presenter.js';
import * as s from './schemas.js';

/**
 * `/api/notifications`: channels and delivery records are an admin's; every user manages their
 * own subscriptions, an admin anyone's (docs/decisions/0043).
 */
export function notificationRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const { channels, outbox, guard } = core.notifications;

  app.post('/channels', { schema: s.createChannelSchema, config: { access: 'admin' } }, async (request) => {
    const input = parseChannelInput(request.body, guard);
    return presentChannel(await channels.create(input.name, input.settings, input.secrets));
  });
  app.get('/channels', { schema: s.listChannelsSchema, config: { access: 'admin' } }, async () => ({
    channels: (await channels.list()).map(presentChannel),
  }));
  app.delete(
    '/channels/:channel_id',
    { schema: s.deleteChannelSchema, config: { access: 'admin' } },
    async (r, reply) => {
      if (!(await channels.remove(r.params.channel_id))) throw nmError('NM_ERR_CHANNEL_NOT_FOUND');
      return reply.status(204).send();
    },
  );

  app.post(
    '/subscriptions',
    { schema: s.createSubscriptionSchema, config: { access: { selfOrAdmin: { in: 'body', name: 'username' } } } },
    async (request) => {
      const body = request.body;
      const username = body.username ?? request.nmUser.username;
      if (body.username !== undefined && !(await core.users.users.find(username)))
        throw nmError('NM_ERR_USER_NOT_FOUND');
      if (!(await channels.find(body.channelId))) throw nmError('NM_ERR_CHANNEL_NOT_FOUND');
      if (body.nodeFamilyId !== undefined && !(await core.topologyStore.findFamily(body.nodeFamilyId)))
        throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
      const created = await channels.subscribe({
        username,
        channelId: body.channelId,
        minSeverity: body.minSeverity ?? 'indeterminate',
        tags: body.tags ?? [],
        alarmIds: body.alarmIds ?? [],
        nodeFamilyId: body.nodeFamilyId ?? null,
      });
      return presentSubscription(created);
    },
  );
  app.get('/subscriptions', { schema: s.listSubscriptionsSchema, config: { access: 'none' } }, async (request) => {
    const user = request.nmUser;
    const isAdmin = !user.authenticated || user.role === 'admin';
    const username = request.query.username ?? (isAdmin ? undefined : user.username);
    if (username !== undefined) authorizeSelfOrAdmin(user, username);
    return { subscriptions: (await channels.subscriptions(username)).map(presentSubscription) };
  });
  app.delete(
    '/subscriptions/:subscription_id',
    { schema: s.deleteSubscriptionSchema, config: { access: 'none' } },
    async (request, reply) => {
      const user = request.nmUser;
      const found = await channels.findSubscription(request.params.subscription_id);
      // Another user's subscription is as unknown to a non-admin as a missing one.
      const mine = found && (!user.authenticated || user.role === 'admin' || found.username === user.username);
      if (!found || !mine) throw nmError('NM_ERR_SUBSCRIPTION_NOT_FOUND');
      await channels.unsubscribe(found.id);
      return reply.status(204).send();
    },
  );

  app.get('/deliveries', { schema: s.listDeliveriesSchema, config: { access: 'admin' } }, async (request) => {
    const { channelId, status, limit, offset } = request.query;
    const deliveries = await outbox.deliveries({
      limit: limit ?? 100,
      offset: offset ?? 0,
      ...(channelId === undefined ? {} : { channelId }),
      ...(status === undefined ? {} : { status }),
    });
    return { deliveries: deliveries.map(presentDelivery) };
  });
  done();
}
