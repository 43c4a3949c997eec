/**
 * CPU per MQTT message through the template service without a broker: the service of
 * `mqtt-bench.ts` (1,000 devices stored by `POST /devices`, history on, SQLite file), its MQTT
 * driver on a client that is no socket, fed the flood's messages as MQTT.js hands them over, 500
 * per turn of the event loop. Prints this process's CPU per message until every value is written,
 * all threads and the main thread alone (a SQLite history is written from a thread of its own).
 * For profiling the service's own path (`node --cpu-prof`) without a publisher and a broker on
 * the same cores.
 * Run: `node --conditions=source --import tsx bench/mqtt-service-cpu.ts`.
 * Env: BENCH_MQTT_MESSAGES (200000), BENCH_MQTT_DEVICES (1000), BENCH_MQTT_HISTORY (on; off).
 */
import { DriverRegistry } from '@triad/device-drivers';
import { MqttConnectionPool } from '../packages/device-drivers/src/drivers/mqtt/mqtt-connection-pool.js';
import { createMqttDriver } from '../packages/device-drivers/src/drivers/mqtt/mqtt-driver.js';
import { startMqttBenchService } from './mqtt-bench-service.js';
import { LoopbackClient } from './mqtt-loopback-client.js';
import { loadAverage, mainThreadCpuSeconds, printTable } from './bench-utils.js';

const MESSAGES = Number(process.env['BENCH_MQTT_MESSAGES'] ?? 200_000);
const DEVICES = Number(process.env['BENCH_MQTT_DEVICES'] ?? 1_000);
const HISTORY = process.env['BENCH_MQTT_HISTORY'] !== 'off';
const HOT_EVERY = 499;
const PER_TURN = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  let client: LoopbackClient | undefined;
  const pool = new MqttConnectionPool(() => (client = new LoopbackClient()));
  const service = await startMqttBenchService({
    registry: new DriverRegistry([createMqttDriver({ pool, defaultBrokerUrl: 'mqtt://127.0.0.1:1883' })]),
    mqttUrl: 'mqtt://127.0.0.1:1883',
    history: HISTORY,
    devices: DEVICES,
  });
  const { metric } = service;
  try {
    while (client === undefined) await sleep(20);
    await sleep(1_000);
    const topics = Array.from({ length: DEVICES }, (_, d) => `plant/line1/sensor-${d}/telemetry`);
    const writtenBefore = HISTORY ? await metric('triad_device_history_written_total') : 0;
    const load = loadAverage();
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuSeconds();
    const start = performance.now();
    for (let i = 0; i < MESSAGES;) {
      for (const end = Math.min(MESSAGES, i + PER_TURN); i < end; i++) {
        const temperature = i % HOT_EVERY === HOT_EVERY - 1 ? 60 : 20;
        const payload = Buffer.from(JSON.stringify({ temperature, humidity: 40, sentAt: Date.now() + 0.25 }));
        client.emit('message', topics[i % DEVICES], payload, { qos: 0, retain: false });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (HISTORY) while ((await metric('triad_device_history_queued')) > 0) await sleep(20);
    const cpu = process.cpuUsage(cpuBefore);
    const mainPerMessage = ((mainThreadCpuSeconds() - mainBefore) * 1e6) / MESSAGES;
    const wall = performance.now() - start;
    const written = HISTORY ? (await metric('triad_device_history_written_total')) - writtenBefore : NaN;
    const perMessage = (cpu.user + cpu.system) / MESSAGES;
    console.log(
      `\nService without a broker, history ${HISTORY ? 'on' : 'off'}, ` +
        `load ${load} at the start, ${loadAverage()} at the end:`,
    );
    printTable(
      ['measure', 'value'],
      [
        ['messages', MESSAGES],
        ['history rows written', written],
        ['wall ms', wall],
        ['CPU per message, µs', perMessage],
        ['of it on the main thread, µs', mainPerMessage],
        ['messages per CPU second', 1e6 / perMessage],
      ],
    );
  } finally {
    await service.close();
  }
}

await main();
