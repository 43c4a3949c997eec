import { createStarterTemplate, type AlertEvent, type DeviceTemplate } from '@triad/device-templates';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceCollector } from '../../device-collector.js';
import { DriverRegistry } from '../../driver-registry.js';
import type { DeviceBinding } from '../../prepare-device.js';
import { collectDevice, type CollectedDevice } from '../../test-support/collect-device.js';
import { hotMqttStarter } from '../../test-support/mqtt-templates.js';
import {
  MOSQUITTO,
  MOSQUITTO_INSTALL,
  MOSQUITTO_PASSWD,
  OPENSSL,
  startMosquitto,
  type MosquittoServer,
} from '../../test-support/mosquitto-server.js';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { MqttConnectionPool } from './mqtt-connection-pool.js';
import { createMqttDriver } from './mqtt-driver.js';

const MQTT = 'svc-ds-drv-mqtt';

interface Run extends CollectedDevice {
  /** The last value of a datapoint, or undefined. */
  value(datapointId: string): unknown;
}

const running: DeviceCollector[] = [];
const publishers: MqttClient[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((collector) => collector.stop()));
  await Promise.all(publishers.splice(0).map((client) => client.endAsync()));
});

/** Binds a template to a device and starts collecting it through the MQTT driver. */
function start(template: DeviceTemplate, binding: DeviceBinding, pool = new MqttConnectionPool()): Run {
  const device = collectDevice(template, binding, new DriverRegistry([createMqttDriver({ pool })]));
  device.collector.start();
  running.push(device.collector);
  return { ...device, value: (datapointId) => device.last(datapointId)?.value };
}

async function publisher(url: string, options: { username?: string; password?: string } = {}): Promise<MqttClient> {
  const client = await connectAsync(url, { ...options, protocolVersion: 5, reconnectPeriod: 0 });
  publishers.push(client);
  return client;
}

function publish(client: MqttClient, topic: string, payload: unknown): Promise<unknown> {
  return client.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload));
}

function alarmTexts(run: Run, type: AlertEvent['type']): string[] {
  return run.events.filter((e): e is AlertEvent => e.type === type).map((e) => e.text);
}

async function up(run: Run): Promise<void> {
  await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('up');
}

function starter(): DeviceTemplate {
  return createStarterTemplate('mqtt') as unknown as DeviceTemplate;
}

/** A template of one map set read from the MQTT driver with the given topics and addresses. */
function template(
  topics: readonly Record<string, unknown>[],
  points: readonly [id: string, address: string, dataType: string][],
  origin = 'press-7',
): DeviceTemplate {
  return {
    templateId: 'mqtt-test',
    templateVersion: '1.0.0',
    origin,
    originTypes: [{ originType: MQTT, topics }],
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

describeWithPrograms('MQTT driver against a real mosquitto', [MOSQUITTO], MOSQUITTO_INSTALL, () => {
  let broker: MosquittoServer;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker.close();
  });

  it('reads the starter template from plant/line1/<origin>/telemetry and ignores other origins', async () => {
    const pool = new MqttConnectionPool();
    const drivers = { [MQTT]: { brokerUrl: broker.url } };
    const sensor = start(starter(), { drivers }, pool);
    // A second device of the same template, another origin: it shares the connection.
    const other = starter();
    other.origin = 'mqtt-sensor-2';
    const second = start(other, { drivers }, pool);
    await up(sensor);
    await up(second);
    expect(pool.size).toBe(1);

    const client = await publisher(broker.url);
    await publish(client, 'plant/line1/someone-else/telemetry', { temperature: 99, humidity: 99 });
    await publish(client, 'plant/line1/mqtt-sensor-2/telemetry', { temperature: 5 });
    await publish(client, 'plant/line1/mqtt-sensor/telemetry', { temperature: 21.5, humidity: 40 });
    await expect.poll(() => sensor.value('humidity'), { timeout: 5_000 }).toBe(40);
    await expect.poll(() => second.value('temperature'), { timeout: 5_000 }).toBe(5);

    expect(sensor.value('temperature')).toBe(21.5);
    expect(sensor.values.map((v) => v.value)).not.toContain(99);
    expect(second.values.map((v) => v.value)).toEqual([5]);
    const temperature = sensor.values.find((v) => v.datapointId === 'temperature');
    expect(temperature).toMatchObject({ origin: 'mqtt-sensor', datapointSetId: 'telemetry', quality: 'good' });
    expect(sensor.states).toEqual([{ state: 'up', error: null }]);
  });

  it('reads JSONPath addresses in transform mode and assigns messages by a payload property', async () => {
    const run = start(
      template(
        [
          {
            topicName: 'site/+/status',
            datapointSet: 'status',
            originStrategy: { strategyId: 'property', property: 'device.id' },
            operationMode: 'transform',
          },
        ],
        [
          ['temperature', '$.payload.readings.temperature', 'DOUBLE'],
          ['pressure', '$..pressure', 'DOUBLE'],
          ['health', 'svc-ds-drv-mqtt:status', 'STRING'],
          ['topic', 'svc-ds-drv-mqtt:topic', 'STRING'],
        ],
      ),
      { drivers: { [MQTT]: { brokerUrl: broker.url } } },
    );
    await up(run);
    const client = await publisher(broker.url);
    const payload = (id: string, temperature: number) => ({
      device: { id },
      status: 'warn',
      readings: { temperature, hydraulics: { pressure: 180.5 } },
    });
    await publish(client, 'site/a/status', payload('press-8', 1));
    await publish(client, 'site/b/status', payload('press-7', 64.25));
    await expect.poll(() => run.value('temperature'), { timeout: 5_000 }).toBe(64.25);
    expect(run.value('pressure')).toBe(180.5);
    expect(run.value('health')).toBe('warn');
    expect(run.value('topic')).toBe('site/b/status');
    expect(run.values.map((v) => v.value)).not.toContain(1);
  });

  it('subscribes to a regular-expression topic name and takes the origin from its capture', async () => {
    const run = start(
      template(
        [
          {
            topicName: '^factory/hall[0-9]+/(?P<origin>[a-z0-9-]+)/state$',
            datapointSet: 'status',
            originStrategy: { strategyId: 'topic' },
          },
        ],
        [
          ['state', 'payload', 'STRING'],
          ['speed', 'payload.speed', 'DOUBLE'],
        ],
        'pump-3',
      ),
      { drivers: { [MQTT]: { brokerUrl: broker.url } } },
    );
    await up(run);
    const client = await publisher(broker.url);
    await publish(client, 'factory/hallX/pump-3/state', 'WRONG-HALL');
    await publish(client, 'factory/hall2/pump-4/state', 'OTHER-PUMP');
    await publish(client, 'factory/hall1/pump-3/state/extra', 'TOO-DEEP');
    await publish(client, 'factory/hall1/pump-3/state', '{"speed": ');
    await publish(client, 'factory/hall12/pump-3/state', 'RUNNING');
    await expect.poll(() => run.value('state'), { timeout: 5_000 }).toBe('RUNNING');
    // The plain-text payload is the value of the address `payload`; the broken JSON is a device
    // event, not a value; nothing else got through.
    expect(run.values.map((v) => v.value)).toEqual(['RUNNING']);
    expect(run.problems.map((p) => p.kind)).toEqual(['payload-malformed']);
    expect(run.logs.join('\n')).toContain('is not valid JSON');

    await publish(client, 'factory/hall1/pump-3/state', { speed: 1450 });
    await expect.poll(() => run.value('speed'), { timeout: 5_000 }).toBe(1450);
    expect(run.collector.state).toBe('up');
  });

  it('takes the origin from an MQTT 5 user property or a payload field', async () => {
    const points: [string, string, string][] = [
      ['level', 'payload.level', 'DOUBLE'],
      ['publisher', 'svc-ds-drv-mqtt:clientId', 'STRING'],
    ];
    const byClient = start(
      template(
        [{ topicName: 'tanks/level', datapointSet: 'status', originStrategy: { strategyId: 'clientId' } }],
        points,
      ),
      { drivers: { [MQTT]: { brokerUrl: broker.url } } },
    );
    const byOrigin = start(
      template(
        [{ topicName: 'tanks/+/level', datapointSet: 'status', originStrategy: { strategyId: 'origin' } }],
        points,
        'tank-1',
      ),
      { drivers: { [MQTT]: { brokerUrl: broker.url } } },
    );
    await up(byClient);
    await up(byOrigin);
    const client = await publisher(broker.url);
    const clientId = (id: string) => ({ properties: { userProperties: { clientId: id } } });
    await client.publishAsync('tanks/level', JSON.stringify({ level: 1 }), clientId('press-8'));
    await client.publishAsync('tanks/level', JSON.stringify({ level: 2 }), clientId('press-7'));
    await publish(client, 'tanks/a/level', { origin: 'tank-2', level: 3 });
    await publish(client, 'tanks/b/level', { origin: 'tank-1', level: 4 });
    // No origin in the message: it belongs to every device on the topic.
    await publish(client, 'tanks/c/level', { level: 5 });
    await expect.poll(() => byClient.value('level'), { timeout: 5_000 }).toBe(2);
    expect(byClient.value('publisher')).toBe('press-7');
    await expect.poll(() => byOrigin.values.map((v) => v.value), { timeout: 5_000 }).toEqual([4, 5]);
  });

  it('raises an alarm when a value crosses its threshold and clears it when it falls back', async () => {
    const alarmed = hotMqttStarter();
    const run = start(alarmed, { drivers: { [MQTT]: { brokerUrl: broker.url } } });
    await up(run);
    const client = await publisher(broker.url);
    const topic = 'plant/line1/mqtt-sensor/telemetry';
    const alarms = () => run.events.filter((e) => e.type === 'alarm-raised' || e.type === 'alarm-cleared');

    await publish(client, topic, { temperature: 20 });
    await expect.poll(() => run.value('temperature'), { timeout: 5_000 }).toBe(20);
    expect(alarms()).toEqual([]);
    await publish(client, topic, { temperature: 60 });
    await expect.poll(() => alarms().map((e) => e.type), { timeout: 5_000 }).toEqual(['alarm-raised']);
    expect(alarms()[0]).toMatchObject({ severity: 601, text: 'Too hot', value: 60, datapointId: 'temperature' });
    await publish(client, topic, { temperature: 30 });
    await expect.poll(() => alarms().map((e) => e.type), { timeout: 5_000 }).toEqual(['alarm-raised', 'alarm-cleared']);
  });

  it('turns the device down when the broker dies and up again, with values, when it is back', async () => {
    const run = start(starter(), { drivers: { [MQTT]: { brokerUrl: broker.url, reconnectPeriod: 100 } } });
    await up(run);
    const topic = 'plant/line1/mqtt-sensor/telemetry';
    const first = await publisher(broker.url);
    await publish(first, topic, { temperature: 20, humidity: 30 });
    await expect.poll(() => run.value('humidity'), { timeout: 5_000 }).toBe(30);

    await broker.stop();
    await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('down');
    expect(['unreachable', 'refused']).toContain(run.states.at(-1)?.error?.code);
    expect(run.states.at(-1)?.error?.message).toContain(broker.url);
    // No values while down: the starter's "humidity has no value" alarm fires.
    expect(run.value('humidity')).toBeNull();
    expect(alarmTexts(run, 'alarm-raised')).toEqual(['humidity has no value']);

    await broker.start();
    await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('up');
    const second = await publisher(broker.url);
    await publish(second, topic, { temperature: 22, humidity: 35 });
    await expect.poll(() => run.value('humidity'), { timeout: 5_000 }).toBe(35);
    expect(alarmTexts(run, 'alarm-cleared')).toEqual(['humidity has no value']);
    // Down may be reported twice: first the lost connection, then the refused reconnections.
    expect([...new Set(run.states.map((s) => s.state))]).toEqual(['up', 'down']);
    expect(run.states.at(-1)).toEqual({ state: 'up', error: null });
  });
});

describeWithPrograms(
  'MQTT driver against a mosquitto with a password file',
  [MOSQUITTO, MOSQUITTO_PASSWD],
  MOSQUITTO_INSTALL,
  () => {
    let broker: MosquittoServer;
    beforeAll(async () => {
      broker = await startMosquitto({ users: { triad: 's3cret' } });
    });
    afterAll(async () => {
      await broker.close();
    });

    it('names a wrong password an authentication error and reads with the right one', async () => {
      const wrong = start(starter(), {
        drivers: { [MQTT]: { brokerUrl: broker.url, username: 'triad', password: 'guess' } },
      });
      const anonymous = start(starter(), { drivers: { [MQTT]: { brokerUrl: broker.url } } });
      const right = start(starter(), {
        drivers: { [MQTT]: { brokerUrl: broker.url, username: 'triad', password: 's3cret' } },
      });
      await expect.poll(() => wrong.collector.state, { timeout: 10_000 }).toBe('down');
      await expect.poll(() => anonymous.collector.state, { timeout: 10_000 }).toBe('down');
      expect(wrong.states.at(-1)?.error).toMatchObject({ code: 'authentication', originType: MQTT });
      expect(wrong.states.at(-1)?.error?.message).toContain('user "triad"');
      expect(wrong.states.at(-1)?.error?.message).not.toContain('guess');
      expect(anonymous.states.at(-1)?.error?.code).toBe('authentication');

      await up(right);
      const client = await publisher(broker.url, { username: 'triad', password: 's3cret' });
      await publish(client, 'plant/line1/mqtt-sensor/telemetry', { temperature: 18 });
      await expect.poll(() => right.value('temperature'), { timeout: 5_000 }).toBe(18);
      expect(wrong.value('temperature') ?? null).toBeNull();
    });
  },
);

describeWithPrograms(
  'MQTT driver against a mosquitto serving TLS',
  [MOSQUITTO, OPENSSL],
  `${MOSQUITTO_INSTALL} openssl`,
  () => {
    let broker: MosquittoServer;
    beforeAll(async () => {
      broker = await startMosquitto({ tls: true });
    });
    afterAll(async () => {
      await broker.close();
    });

    it('reads over mqtts:// with the CA given, and names the certificate problem without it', async () => {
      const trusted = start(starter(), { drivers: { [MQTT]: { brokerUrl: broker.url, tls: { ca: broker.ca } } } });
      const untrusted = start(starter(), { drivers: { [MQTT]: { brokerUrl: broker.url } } });
      await up(trusted);
      await expect.poll(() => untrusted.collector.state, { timeout: 10_000 }).toBe('down');
      expect(untrusted.states.at(-1)?.error?.message).toMatch(/certificate/);

      const client = await connectAsync(broker.url, { ca: broker.ca, reconnectPeriod: 0 });
      publishers.push(client);
      await publish(client, 'plant/line1/mqtt-sensor/telemetry', { temperature: 19.5 });
      await expect.poll(() => trusted.value('temperature'), { timeout: 5_000 }).toBe(19.5);
    });
  },
);

describe('MQTT driver configuration', () => {
  const driver = createMqttDriver({ defaultBrokerUrl: 'mqtt://broker.example:1883' });
  const topics = [
    { topicName: 'a/+/b', datapointSet: 'status', originStrategy: { strategyId: 'topic' }, operationMode: 'extract' },
  ];

  it('accepts the starter configuration', () => {
    const config = (createStarterTemplate('mqtt')['originTypes'] as Record<string, unknown>[])[0]!;
    expect(driver.check(config)).toEqual([]);
  });

  it.each([
    [{ topics: [] }, 'topics must list at least one'],
    [{ topics, brokerUrl: 'mqtt://user:pw@host' }, 'brokerUrl must not hold a password'],
    [{ topics, brokerUrl: 'http://host' }, 'brokerUrl must start with mqtt://'],
    [{ topics: [{ ...topics[0], topicName: 'a/#/b' }] }, '"#" must be the whole last level'],
    [{ topics: [{ ...topics[0], topicName: '^a/(b' }] }, 'not a regular expression RE2 runs: missing )'],
    [{ topics: [{ ...topics[0], topicName: 'a/b' }] }, 'has no "+" level'],
    [{ topics: [{ ...topics[0], originStrategy: { strategyId: 'ip' } }] }, 'strategyId must be one of topic'],
    [{ topics: [{ ...topics[0], originStrategy: { strategyId: 'property' } }] }, 'property is required'],
    [{ topics: [{ ...topics[0], operationMode: 'copy' }] }, 'operationMode must be extract or transform'],
    [{ topics, brokerUrl: 'mqtts://host', tls: { ca: '/etc/ssl/ca.pem' } }, 'tls.ca must be PEM text'],
    [{ topics, tls: { rejectUnauthorized: false } }, 'tls is given but brokerUrl starts with mqtt://'],
    [{ topics, qos: 3 }, 'qos must be an integer from 0 to 2'],
  ])('refuses %j', (config, problem) => {
    const problems = driver.check(config);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it('connects to no broker when the template reads nothing through it', async () => {
    const pool = new MqttConnectionPool(() => {
      throw new Error('no connection expected');
    });
    const config = (createStarterTemplate('mqtt')['originTypes'] as Record<string, unknown>[])[0]!;
    const quiet = createMqttDriver({ pool }).create({ config, origin: 'mqtt-sensor' });
    const reports: unknown[] = [];
    const listener = { updates: (u: unknown) => reports.push(u), connection: (e: unknown) => reports.push(e) };
    if (quiet.kind !== 'subscription') throw new Error('the MQTT driver subscribes');
    await quiet.start({ points: [], tables: [] }, listener);
    await quiet.close();
    expect(pool.size).toBe(0);
    expect(reports).toEqual([]);
  });

  it('keeps the password and the TLS key secret', () => {
    expect(driver.secretKeys).toEqual(['password', 'tls.key', 'tls.passphrase']);
  });
});
