import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { DriverError } from '../../driver-error.js';
import type { MqttMessage } from './mqtt-message.js';
import { MqttConnection, type ConnectionUser, type MqttClientLike } from './mqtt-connection.js';
import { mqttSettings } from './mqtt-settings.js';

/** A client without a broker: the test decides what the broker answers. */
class ScriptedClient extends EventEmitter implements MqttClientLike {
  readonly subscribed: string[] = [];
  readonly unsubscribed: string[] = [];
  reconnects = 0;
  /** SUBACK reason code per filter (default 0, granted). */
  grant = new Map<string, number>();

  subscribe(topic: string, _options: unknown, callback: (error: null, granted: { qos: number }[]) => void): this {
    this.subscribed.push(topic);
    setImmediate(() => callback(null, [{ qos: this.grant.get(topic) ?? 0 }]));
    return this;
  }
  unsubscribe(topic: string, callback: () => void): this {
    this.unsubscribed.push(topic);
    setImmediate(callback);
    return this;
  }
  reconnect(): this {
    this.reconnects++;
    return this;
  }
  end(_force: boolean, callback: () => void): this {
    setImmediate(callback);
    return this;
  }
  refuse(code: number, message: string): void {
    this.emit('error', Object.assign(new Error(message), { code }));
    this.emit('close');
  }
}

const settings = mqttSettings(
  {
    authRetryPeriod: 100,
    topics: [{ topicName: 'plant/+/telemetry', datapointSet: 'telemetry', originStrategy: { strategyId: 'topic' } }],
  },
  'mqtt://broker.test:1883',
);

function device(origin: string) {
  const reports: (string | null)[] = [];
  const messages: MqttMessage[] = [];
  const user: ConnectionUser = {
    bindings: settings.topics.map((entry) => ({ entry, origin, handle: (message) => messages.push(message) })),
    qos: 0,
    connection: (error: DriverError | null) => reports.push(error === null ? null : error.code),
  };
  return { user, reports, messages };
}

function connection() {
  let client: ScriptedClient | undefined;
  const shared = new MqttConnection(settings.connection, () => (client = new ScriptedClient()));
  return { shared, client: () => client! };
}

describe('MqttConnection', () => {
  it('subscribes a filter once for many devices and hands each message to its device only', async () => {
    const { shared, client } = connection();
    const [a, b] = [device('a'), device('b')];
    const ready = [shared.attach(a.user), shared.attach(b.user)];
    client().emit('connect');
    await Promise.all(ready);
    expect(client().subscribed).toEqual(['plant/+/telemetry']);
    expect([a.reports, b.reports]).toEqual([[null], [null]]);

    client().emit('message', 'plant/b/telemetry', Buffer.from('{"t":1}'), { qos: 0, retain: false });
    expect(a.messages).toHaveLength(0);
    expect(b.messages.map((m) => m.payload)).toEqual([{ t: 1 }]);

    shared.detach(a.user);
    expect(client().unsubscribed).toEqual([]);
    shared.detach(b.user);
    expect(client().unsubscribed).toEqual(['plant/+/telemetry']);
    await shared.end();
  });

  it('hands a message on a device topic to that device only', async () => {
    const { shared, client } = connection();
    const own = (origin: string) => {
      const [entry] = mqttSettings(
        { topics: [{ topicName: `tanks/${origin}`, datapointSet: 'level', originStrategy: { strategyId: 'origin' } }] },
        'mqtt://broker.test:1883',
      ).topics;
      const messages: string[] = [];
      const user: ConnectionUser = {
        bindings: [{ entry: entry!, origin, handle: (message) => messages.push(message.topic) }],
        qos: 0,
        connection: () => undefined,
      };
      return { user, messages };
    };
    const devices = Array.from({ length: 100 }, (_, i) => own(`tank-${i}`));
    const ready = devices.map((d) => shared.attach(d.user));
    client().emit('connect');
    await Promise.all(ready);
    client().emit('message', 'tanks/tank-42', Buffer.from('{"level":3}'), { qos: 0, retain: false });
    expect(devices.map((d) => d.messages.length).reduce((a, b) => a + b)).toBe(1);
    expect(devices[42]!.messages).toEqual(['tanks/tank-42']);
    await shared.end();
  });

  it('reports a refused subscription as an authentication error', async () => {
    const { shared, client } = connection();
    const a = device('a');
    const ready = shared.attach(a.user);
    client().grant.set('plant/+/telemetry', 135);
    client().emit('connect');
    await expect(ready).rejects.toMatchObject({ code: 'authentication' });
    expect(a.reports).toEqual(['authentication']);
    await shared.end();
  });

  it('reports refused credentials, tries again after authRetryPeriod, and reports up once let in', async () => {
    const { shared, client } = connection();
    const a = device('a');
    const ready = shared.attach(a.user);
    client().refuse(134, 'Connection refused: Bad User Name or Password');
    const refused = await ready.then(
      () => undefined,
      (error: unknown) => error as DriverError,
    );
    expect(refused?.code).toBe('authentication');
    expect(refused?.message).toContain('refused the credentials (none were given)');
    await expect.poll(() => client().reconnects, { timeout: 2_000 }).toBe(1);
    client().emit('connect');
    await expect.poll(() => a.reports).toEqual(['authentication', null]);
    await shared.end();
  });

  it('reports a lost connection once and up again after the reconnection is subscribed', async () => {
    const { shared, client } = connection();
    const a = device('a');
    const ready = shared.attach(a.user);
    client().emit('connect');
    await ready;
    client().emit('close');
    client().emit('error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    client().emit('close');
    client().emit('error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    client().emit('close');
    client().emit('connect');
    await expect.poll(() => a.reports).toEqual([null, 'unreachable', 'refused', null]);
    expect(client().subscribed).toEqual(['plant/+/telemetry', 'plant/+/telemetry']);
    await shared.end();
  });
});
