import type { DeviceTemplate } from '@triad/device-templates';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { DeviceCollector } from '../../device-collector.js';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice, type CollectedDevice } from '../../test-support/collect-device.js';
import {
  MOSQUITTO,
  MOSQUITTO_INSTALL,
  startMosquitto,
  type MosquittoServer,
} from '../../test-support/mosquitto-server.js';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { MqttConnectionPool } from './mqtt-connection-pool.js';
import { createMqttDriver } from './mqtt-driver.js';

const MQTT = 'svc-ds-drv-mqtt';

const running: DeviceCollector[] = [];
const publishers: MqttClient[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((collector) => collector.stop()));
  await Promise.all(publishers.splice(0).map((client) => client.endAsync()));
});

/** One map set `status` on topic `lab/<origin>/state`, its datapoints `[id, address, dataType]`. */
function template(points: readonly [string, string, string][]): DeviceTemplate {
  return {
    templateId: 'mqtt-payloads',
    templateVersion: '1.0.0',
    origin: 'probe-1',
    originTypes: [
      {
        originType: MQTT,
        topics: [{ topicName: 'lab/+/state', datapointSet: 'status', originStrategy: { strategyId: 'topic' } }],
      },
    ],
    datapointSets: [
      {
        datapointSetId: 'status',
        datapointSetType: 'map',
        datapoints: points.map(([datapointId, originAddress, dataType]) => ({
          commonConfig: { datapointId, datapointType: 'DATAPOINT' },
          addressConfig: {
            dataType,
            originType: MQTT,
            originDataType: 'number',
            originAddress,
            originAccessType: 'read-only',
            receiveMode: 'subscription',
            pollingGroup: '30s',
          },
        })),
      },
    ],
  } as unknown as DeviceTemplate;
}

function start(tpl: DeviceTemplate, config: Record<string, unknown>): CollectedDevice {
  const device = collectDevice(
    tpl,
    { drivers: { [MQTT]: config } },
    new DriverRegistry([createMqttDriver({ pool: new MqttConnectionPool() })]),
  );
  device.collector.start();
  running.push(device.collector);
  return device;
}

async function publisher(url: string): Promise<MqttClient> {
  const client = await connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  publishers.push(client);
  return client;
}

async function up(run: CollectedDevice): Promise<void> {
  await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('up');
}

describeWithPrograms('MQTT payloads and sessions against a real mosquitto', [MOSQUITTO], MOSQUITTO_INSTALL, () => {
  let broker: MosquittoServer;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker.close();
  });

  it('takes a numeric string for a DOUBLE and marks "hello" and "1,5" bad, naming value and type', async () => {
    const run = start(
      template([
        ['temp', 'payload.temp', 'DOUBLE'],
        ['text', 'payload', 'DOUBLE'],
      ]),
      { brokerUrl: broker.url },
    );
    await up(run);
    const client = await publisher(broker.url);
    await client.publishAsync('lab/probe-1/state', '{"temp":"24.5"}');
    await expect.poll(() => run.last('temp'), { timeout: 5_000 }).toMatchObject({ value: 24.5, quality: 'good' });
    await client.publishAsync('lab/probe-1/state', 'hello');
    await expect.poll(() => run.last('text')?.quality, { timeout: 5_000 }).toBe('bad');
    expect(run.last('text')?.value).toBeNull();
    await client.publishAsync('lab/probe-1/state', '1,5');
    await expect.poll(() => run.problems.length, { timeout: 5_000 }).toBe(3);
    // The whole JSON document read as a DOUBLE was refused too.
    expect(run.problems.map((p) => [p.kind, p.datapointId, p.count])).toEqual([
      ['value-refused', 'text', 1],
      ['value-refused', 'text', 2],
      ['value-refused', 'text', 3],
    ]);
    expect(run.problems[0]?.message).toContain('{"temp":"24.5"} is not a valid DOUBLE');
    expect(run.problems[1]?.message).toContain('status/text: "hello" is not a valid DOUBLE');
    expect(run.problems[2]?.message).toContain('"1,5" is not a valid DOUBLE');
    expect(run.values.filter((v) => v.datapointId === 'text').map((v) => v.quality)).toEqual(['bad', 'bad', 'bad']);
    expect(run.collector.problemCounts()).toEqual({ 'value-refused': 3, 'payload-malformed': 0 });
  });

  it('reads nothing from an empty payload (a retained delete) and keeps the last value', async () => {
    const run = start(template([['state', 'payload', 'STRING']]), { brokerUrl: broker.url });
    await up(run);
    const client = await publisher(broker.url);
    await client.publishAsync('lab/probe-1/state', 'RUNNING', { retain: true });
    await expect.poll(() => run.last('state')?.value, { timeout: 5_000 }).toBe('RUNNING');
    await client.publishAsync('lab/probe-1/state', '', { retain: true });
    await client.publishAsync('lab/probe-1/state', 'STOPPED');
    await expect.poll(() => run.last('state')?.value, { timeout: 5_000 }).toBe('STOPPED');
    expect(run.values.map((v) => v.value)).toEqual(['RUNNING', 'STOPPED']);
    expect(run.problems).toEqual([]);
  });

  it('refuses bytes that are not UTF-8 and JSON that does not parse as device events, with no value', async () => {
    const run = start(template([['state', 'payload', 'STRING']]), { brokerUrl: broker.url });
    await up(run);
    const client = await publisher(broker.url);
    await client.publishAsync('lab/probe-1/state', Buffer.from([0x4f, 0x4b, 0xff, 0xfe]));
    await client.publishAsync('lab/probe-1/state', '{"speed": ');
    await client.publishAsync('lab/probe-1/state', 'gr\u00fcn');
    await expect.poll(() => run.last('state')?.value, { timeout: 5_000 }).toBe('gr\u00fcn');
    expect(run.values.map((v) => v.value)).toEqual(['gr\u00fcn']);
    expect(run.problems.map((p) => [p.kind, p.count])).toEqual([
      ['payload-malformed', 1],
      ['payload-malformed', 2],
    ]);
    expect(run.problems[0]?.message).toContain('the payload on lab/probe-1/state (4 bytes) is not UTF-8 text');
    expect(run.problems[1]?.message).toContain('the payload on lab/probe-1/state is not valid JSON');
    expect(run.values.some((v) => typeof v.value === 'string' && v.value.includes('\ufffd'))).toBe(false);
  });

  it('keeps the session with cleanSession false: QoS 1 messages sent while stopped arrive after restart', async () => {
    const config = { brokerUrl: broker.url, clientId: 'triad-session-test', cleanSession: false, qos: 1 };
    const points: [string, string, string][] = [['count', 'payload.n', 'INTEGER']];
    const first = start(template(points), config);
    await up(first);
    await first.collector.stop();
    const client = await publisher(broker.url);
    await client.publishAsync('lab/probe-1/state', '{"n": 41}', { qos: 1 });
    await client.publishAsync('lab/probe-1/state', '{"n": 42}', { qos: 1 });
    const second = start(template(points), config);
    await expect.poll(() => second.values.map((v) => v.value), { timeout: 10_000 }).toEqual([41, 42]);
  });

  it('loses messages sent while stopped with the default clean session', async () => {
    const config = { brokerUrl: broker.url, clientId: 'triad-clean-test', qos: 1 };
    const points: [string, string, string][] = [['count', 'payload.n', 'INTEGER']];
    const first = start(template(points), config);
    await up(first);
    await first.collector.stop();
    const client = await publisher(broker.url);
    await client.publishAsync('lab/probe-1/state', '{"n": 41}', { qos: 1 });
    const second = start(template(points), config);
    await up(second);
    await client.publishAsync('lab/probe-1/state', '{"n": 43}', { qos: 1 });
    await expect.poll(() => second.values.map((v) => v.value), { timeout: 5_000 }).toEqual([43]);
  });

  it('refuses cleanSession false without a fixed clientId', () => {
    const factory = createMqttDriver();
    expect(factory.check({ brokerUrl: broker.url, cleanSession: false, topics: [] }).join('\n')).toContain(
      'give clientId a fixed value',
    );
  });
});
