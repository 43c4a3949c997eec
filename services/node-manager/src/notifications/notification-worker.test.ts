import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { SecretCipher } from '@triad/service-kit';
import type { AlarmRecord } from '../model/alarm-record.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { CHANNEL_SECRETS } from '../secrets/channel-secrets.js';
import { startHttpReceiver, type HttpTestReceiver } from '../test-support/http-test-receiver.js';
import { useTestApp } from '../test-support/node-manager-test-app.js';
import { createNotifications } from './notifications.js';

const TOKEN = 'T0KEN-of-the-slack-hook-4711';

describeEachDatabase<NodeManagerDatabase>('node-manager notification worker logs', (getDb) => {
  const t = useTestApp(getDb);
  let receiver: HttpTestReceiver;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('keeps channel secrets out of its log and of the attempts, even when the receiver echoes them', async () => {
    const logged: string[] = [];
    const notifications = createNotifications({
      database: getDb(),
      settings: { ...t.core.config, notifyAllow: '127.0.0.1', notifyMaxAttempts: 1 },
      secrets: new SecretCipher([randomBytes(32)], CHANNEL_SECRETS),
      lookups: { userTags: () => Promise.resolve('all'), familyOf: () => Promise.resolve(undefined) },
      instanceId: 'logs',
      ownPorts: () => [],
      log: { warn: (fields, message) => logged.push(JSON.stringify({ fields, message })) },
      now: Date.now,
    });
    // The receiver repeats the path it was called at, Slack token included.
    receiver.answer((request) => ({ status: 404, body: `no hook at ${request.path}` }));
    const channel = await notifications.channels.create('s', { type: 'slack' }, { url: receiver.url(`/s/${TOKEN}`) });
    await notifications.channels.subscribe({
      username: 'admin',
      channelId: channel.id,
      minSeverity: 'indeterminate',
      tags: [],
      alarmIds: [],
      nodeFamilyId: null,
    });
    const alarm = {
      alarmId: 'a',
      eventUs: 1,
      nodeId: 'n',
      nodeName: 'n@h',
      rawSrc: 'src',
      severity: 'major',
      tags: [],
    };
    notifications.observe('raised', {
      ...alarm,
      probableCause: '',
      description: '',
      additionalInformation: '',
    } as unknown as AlarmRecord);
    await notifications.enqueuer.idle();
    expect(await notifications.worker.runOnce()).toBe(1);
    expect(receiver.requests[0]?.path).toBe(`/s/${TOKEN}`);
    const [delivery] = await notifications.outbox.deliveries({ limit: 1 });
    expect(delivery!.notification.status).toBe('failed');
    expect(delivery!.attempts[0]).toMatchObject({ statusCode: 404, reply: 'no hook at ***' });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('notification failed for good');
    expect(logged.join('\n')).not.toContain(TOKEN);
  });
});
