/**
 * MQTT messages per second from a real mosquitto through the MQTT driver and the value pipeline
 * (issue 15; aim: 50,000 messages/s), and the time from a publish to the alarm it raises (aim:
 * under 50 ms). 1,000 devices of the MQTT starter template (with an alarm on temperature > 50)
 * share one broker connection; a publisher in another process sends 200,000 JSON messages with
 * QoS 0, round-robin over the devices, every 499th over the threshold (the device's next message
 * clears it). Then 50 single messages 20 ms apart measure the alarm latency without load. Each
 * message carries the publisher's clock (`sentAt`, epoch ms with fractions).
 * Run: `npm run bench -- mqtt` (needs /usr/sbin/mosquitto; < 1 min).
 * Then the same flood end to end through the template service (issue 29): `buildTemplatesApp` on a
 * SQLite file with history on, the devices stored through `POST /devices` and collected by its
 * device collection with the default MQTT driver, every value written to the history; this
 * process's CPU (from /proc, the SQLite engine included) until the history queue is empty.
 * Env: BENCH_MQTT_MESSAGES (200000), BENCH_MQTT_DEVICES (1000), BENCH_MQTT_RATE (20000, the paced
 * phase), BENCH_MQTT_ONLY=in-process (only the driver and pipeline without a broker) or
 * BENCH_MQTT_ONLY=service (only the template-service run).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTemplatePipeline } from '@triad/device-templates';
import {
  defaultDriverRegistry,
  DeviceCollector,
  DriverRegistry,
  Limiter,
  prepareDevice,
  type DriverFactory,
  type SubscriptionDriver,
} from '@triad/device-drivers';
import { connectAsync } from 'mqtt';
// Not exported by the package yet: the collector's registry gets the driver when it is wired in.
import { MqttConnectionPool } from '../packages/device-drivers/src/drivers/mqtt/mqtt-connection-pool.js';
import { createMqttDriver } from '../packages/device-drivers/src/drivers/mqtt/mqtt-driver.js';
import { benchMqttTemplate, startMqttBenchService } from './mqtt-bench-service.js';
import { LoopbackClient } from './mqtt-loopback-client.js';
import { MOSQUITTO, startMosquitto } from '../packages/device-drivers/src/test-support/mosquitto-server.js';
import { cpuSeconds, mainThreadCpuSeconds, percentile, printTable } from './bench-utils.js';

const MESSAGES = Number(process.env['BENCH_MQTT_MESSAGES'] ?? 200_000);
const DEVICES = Number(process.env['BENCH_MQTT_DEVICES'] ?? 1_000);
const RATE = Number(process.env['BENCH_MQTT_RATE'] ?? 20_000);
// Prime and no divisor of the device count: hot messages move across the devices, each device's
// next message (a cool one) clears its alarm.
const HOT_EVERY = 499;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const now = () => performance.timeOrigin + performance.now();

// The publisher runs in its own process so that it does not share the subscriber's event loop.
// Rate 0 publishes as fast as it can; otherwise rate/100 messages every 10 ms.
const PUBLISHER = `
const mqtt = require('mqtt');
const [url, total, devices, hotEvery, rate] = process.argv.slice(1).map((a, i) => (i === 0 ? a : Number(a)));
const client = mqtt.connect(url, { reconnectPeriod: 0, protocolVersion: 5 });
client.on('connect', () => {
  const start = performance.now();
  let i = 0;
  const batch = () => {
    const tick = performance.now();
    const due = rate === 0 ? i + 500 : Math.ceil(((tick - start) * rate) / 1000);
    for (; i < due && i < total; i++) {
      const temperature = i % hotEvery === hotEvery - 1 ? 60 : 20;
      const sentAt = performance.timeOrigin + performance.now();
      const payload = JSON.stringify({ temperature, humidity: 40, sentAt });
      client.publish('plant/line1/sensor-' + (i % devices) + '/telemetry', payload, { qos: 0 });
    }
    if (i < total) rate === 0 ? setImmediate(batch) : setTimeout(batch, 10);
    else client.end(false, () => console.log(JSON.stringify({ publishMs: performance.now() - start })));
  };
  batch();
});
client.on('error', (error) => { console.error(error.message); process.exit(1); });
`;

/** What the sink saw during one phase. */
interface Phase {
  received: number;
  firstAt: number;
  lastAt: number;
  raised: number;
  cleared: number;
  latencies: number[];
}

const newPhase = (): Phase => ({ received: 0, firstAt: 0, lastAt: 0, raised: 0, cleared: 0, latencies: [] });
let phase = newPhase();

async function main(): Promise<void> {
  if (process.env['BENCH_MQTT_ONLY'] === 'in-process') {
    const alone = await inProcess(MESSAGES);
    printTable(
      ['no broker: driver + pipeline', 'messages/s'],
      [
        ['wall time', alone.wall],
        ['CPU time', alone.perCpuSecond],
      ],
    );
    return;
  }
  if (!existsSync(MOSQUITTO)) {
    console.log(`skipped: ${MOSQUITTO} not found (apt-get install mosquitto)`);
    return;
  }
  if (process.env['BENCH_MQTT_ONLY'] === 'service') {
    await throughService();
    return;
  }
  const broker = await startMosquitto({ extraConfig: ['max_queued_messages 0'] });
  const pool = new MqttConnectionPool();
  const registry = new DriverRegistry([createMqttDriver({ pool })]);
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const collectors = startDevices(registry, broker.url);
  await waitUntil(() => collectors.every((c) => c.state === 'up'), 30_000);
  (globalThis as { gc?: () => void }).gc?.();
  const heapPerDevice = (process.memoryUsage().heapUsed - heapBefore) / DEVICES;

  /** Publishes `total` messages at `rate` per second (0: flat out) and waits for them. */
  const run = async (total: number, rate: number) => {
    phase = newPhase();
    const cpuBefore = process.cpuUsage();
    const publishStart = now();
    const publisher = spawn(
      process.execPath,
      ['-e', PUBLISHER, broker.url, String(total), String(DEVICES), String(HOT_EVERY), String(rate)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    publisher.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await new Promise<void>((resolve) => publisher.on('exit', () => resolve()));
    // The tail: until every message arrived, or none arrived for 2 s.
    for (let quiet = 0; phase.received < total && quiet < 20;) {
      const seen = phase.received;
      await sleep(100);
      quiet = phase.received === seen ? quiet + 1 : 0;
    }
    const cpu = process.cpuUsage(cpuBefore);
    const done = phase;
    const { publishMs } = JSON.parse(out || '{"publishMs":0}') as { publishMs: number };
    return {
      ...done,
      publishMs,
      seconds: (done.lastAt - publishStart) / 1000,
      cpuPerMessage: (cpu.user + cpu.system) / Math.max(1, done.received),
      latencies: done.latencies.sort((a, b) => a - b),
    };
  };

  const flood = await run(MESSAGES, 0);
  const paced = await run(RATE * 5, RATE);

  // Alarm latency without load: one hot and one cool message at a time.
  phase = newPhase();
  const client = await connectAsync(broker.url, { reconnectPeriod: 0 });
  for (let i = 0; i < 50; i++) {
    const temperature = i % 2 === 0 ? 70 : 20;
    await client.publishAsync('plant/line1/sensor-0/telemetry', JSON.stringify({ temperature, sentAt: now() }));
    await sleep(20);
  }
  await sleep(200);
  const idle = phase.latencies.sort((a, b) => a - b);
  await client.endAsync();
  await Promise.all(collectors.map((c) => c.stop()));
  await broker.close();
  const alone = await inProcess(MESSAGES);

  printTable(
    ['measure', 'value'],
    [
      ['devices (one shared broker connection)', DEVICES],
      ['flood: messages published (QoS 0)', MESSAGES],
      ['flood: messages through the pipeline', flood.received],
      ['flood: publisher time, ms', flood.publishMs],
      ['flood: first publish to last value, ms', flood.seconds * 1000],
      ['flood: messages/s end to end', flood.received / flood.seconds],
      ['flood: subscriber CPU per message, µs', flood.cpuPerMessage],
      ['flood: messages/s one core could take', 1e6 / flood.cpuPerMessage],
      ['flood: alarms raised / cleared', `${flood.raised} / ${flood.cleared}`],
      [`paced ${RATE}/s: messages through`, paced.received],
      [`paced: alarms raised / cleared`, `${paced.raised} / ${paced.cleared}`],
      ['paced: publish to alarm p50, ms', pct(paced.latencies, 50)],
      ['paced: publish to alarm p99, ms', pct(paced.latencies, 99)],
      ['paced: publish to alarm max, ms', pct(paced.latencies, 100)],
      ['idle: publish to alarm p50, ms', pct(idle, 50)],
      ['idle: publish to alarm p99, ms', pct(idle, 99)],
      ['heap per device, KiB', heapPerDevice / 1024],
      ['no broker: driver + pipeline messages/s', alone.wall],
      ['no broker: messages per CPU second', alone.perCpuSecond],
    ],
  );
  await throughService();
}

/** Runs the publisher process: `total` messages at `rate` per second (0: flat out); resolves when it is done. */
async function publish(url: string, total: number, rate: number): Promise<number> {
  const publisher = spawn(
    process.execPath,
    ['-e', PUBLISHER, url, String(total), String(DEVICES), String(HOT_EVERY), String(rate)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  publisher.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await new Promise<void>((resolve) => publisher.on('exit', () => resolve()));
  return (JSON.parse(out || '{"publishMs":0}') as { publishMs: number }).publishMs;
}

/**
 * The flood end to end through the template service with history on (SQLite file): devices stored
 * by `POST /devices`, collected by the service's own collection and default MQTT driver (counted
 * by a wrapper), every value into the history. CPU of this process from /proc until the history
 * queue is empty.
 */
async function throughService(): Promise<void> {
  const broker = await startMosquitto({ extraConfig: ['max_queued_messages 0'] });
  let messages = 0;
  let lastAt = 0;
  let up = 0;
  const defaults = defaultDriverRegistry({ mqttBrokerUrl: broker.url });
  const mqtt = defaults.get('svc-ds-drv-mqtt')!;
  const counted: DriverFactory = {
    ...mqtt,
    create(context) {
      const driver = mqtt.create(context) as SubscriptionDriver;
      return {
        kind: 'subscription',
        async start(request, listener) {
          await driver.start(request, {
            ...listener,
            updates: (updates) => {
              for (const update of updates)
                if ('datapointId' in update && update.datapointId === 'temperature') messages++;
              lastAt = now();
              listener.updates(updates);
            },
          });
          up++;
        },
        close: () => driver.close(),
      };
    },
  };
  const service = await startMqttBenchService({
    registry: new DriverRegistry([counted], defaults.guard),
    mqttUrl: broker.url,
    history: true,
    devices: DEVICES,
  });
  const history = async () => ({
    written: await service.metric('triad_device_history_written_total'),
    queued: await service.metric('triad_device_history_queued'),
    dropped: await service.metric('triad_device_history_dropped_total'),
  });
  try {
    await waitUntil(() => up >= DEVICES, 60_000);
    await sleep(1_000);
    const before = await history();
    const load = os.loadavg()[0]!;
    const cpuBefore = cpuSeconds(process.pid);
    const mainBefore = mainThreadCpuSeconds();
    const start = now();
    const publishMs = await publish(broker.url, MESSAGES, 0);
    for (let quiet = 0; messages < MESSAGES && quiet < 20;) {
      const seen = messages;
      await sleep(100);
      quiet = messages === seen ? quiet + 1 : 0;
    }
    const receivedS = (lastAt - start) / 1000;
    while ((await history()).queued > 0) await sleep(100);
    const doneS = (now() - start) / 1000;
    const cpuS = cpuSeconds(process.pid) - cpuBefore;
    const mainS = mainThreadCpuSeconds() - mainBefore;
    const after = await history();
    const perMessage = (cpuS / Math.max(1, messages)) * 1e6;
    console.log(
      `\nThrough the template service, history on (SQLite), ${DEVICES} devices, ${os.cpus().length} cores, ` +
        `load average ${load.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end:`,
    );
    printTable(
      ['measure', 'value'],
      [
        ['messages published (QoS 0)', MESSAGES],
        ['messages collected', messages],
        ['publisher time, ms', publishMs],
        ['messages/s, first publish to last collected', messages / receivedS],
        ['messages/s, first publish to history written', messages / doneS],
        ['history rows written', after.written - before.written],
        ['history values dropped', after.dropped - before.dropped],
        ['service CPU seconds (from /proc)', cpuS],
        ['service CPU per message, µs', perMessage],
        ['messages/s one core could take', 1e6 / perMessage],
        // The SQLite history is written from a thread of its own: the main thread's share bounds one process.
        ['of the CPU per message, on the main thread, µs', (mainS / Math.max(1, messages)) * 1e6],
      ],
    );
  } finally {
    await service.close();
    await broker.close();
  }
}

/** Starts DEVICES devices of the template, origins sensor-0..., whose results go to `phase`. */
function startDevices(registry: DriverRegistry, brokerUrl: string): DeviceCollector[] {
  const base = benchMqttTemplate();
  const pipeline = compileTemplatePipeline(base);
  const collectors: DeviceCollector[] = [];
  for (let d = 0; d < DEVICES; d++) {
    const device = { ...base, origin: `sensor-${d}` };
    const prepared = prepareDevice(device, { drivers: { 'svc-ds-drv-mqtt': { brokerUrl } } }, registry);
    if (prepared.problems.length > 0) throw new Error(JSON.stringify(prepared.problems));
    const collector = new DeviceCollector({
      pipeline,
      drivers: prepared.drivers,
      origin: prepared.origin,
      registry,
      limiter: new Limiter(4),
      sink: {
        output(values, events) {
          const at = now();
          for (const value of values) if (value.datapointId === 'temperature') phase.received++;
          if (phase.firstAt === 0) phase.firstAt = at;
          phase.lastAt = at;
          for (const event of events) {
            if (event.type === 'alarm-cleared') phase.cleared++;
            if (event.type !== 'alarm-raised') continue;
            phase.raised++;
            const sentAt = values.find((v) => v.datapointId === 'sentAt')?.value;
            if (typeof sentAt === 'number') phase.latencies.push(at - sentAt);
          }
        },
        state: () => undefined,
      },
    });
    collector.start();
    collectors.push(collector);
  }
  return collectors;
}

/**
 * The driver and pipeline alone: the same devices on a client that is no socket, fed the
 * messages as MQTT.js would hand them over: messages per second of wall time and of CPU time.
 */
async function inProcess(total: number): Promise<{ wall: number; perCpuSecond: number }> {
  let client: LoopbackClient | undefined;
  const pool = new MqttConnectionPool(() => (client = new LoopbackClient()));
  const collectors = startDevices(new DriverRegistry([createMqttDriver({ pool })]), 'mqtt://loopback:1883');
  await waitUntil(() => collectors.every((c) => c.state === 'up'), 30_000);
  const messages = Array.from({ length: 10_000 }, (_, i) => ({
    topic: `plant/line1/sensor-${i % DEVICES}/telemetry`,
    payload: Buffer.from(JSON.stringify({ temperature: i % HOT_EVERY === 0 ? 60 : 20, humidity: 40, sentAt: 0 })),
  }));
  phase = newPhase();
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < total; i++) {
    const message = messages[i % messages.length]!;
    client?.emit('message', message.topic, message.payload, { qos: 0, retain: false });
  }
  const cpu = process.cpuUsage(cpuBefore);
  const wall = (phase.received / (performance.now() - start)) * 1000;
  await Promise.all(collectors.map((c) => c.stop()));
  return { wall, perCpuSecond: (phase.received / (cpu.user + cpu.system)) * 1e6 };
}

/** A percentile of ascending samples; NaN when there are none. */
function pct(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : percentile(sorted, p);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('devices did not come up');
    await sleep(20);
  }
}

await main();
