/**
 * Issue 15: time from a value crossing a threshold to the alarm in `GET /devices/{id}/alarms`,
 * through the whole template service (driver, pipeline, alarm stored in SQLite, REST read).
 * - MQTT (aim < 50 ms): a device bound to the MQTT starter with "Too hot" on temperature > 50;
 *   each round publishes a hot reading, then a cool one, and polls the alarm list until the alarm
 *   is there (then gone). Latency = publish → first GET that shows the change.
 * - SNMP (aim: one polling interval plus < 50 ms): a device polling an snmpd `extend` every 5 s;
 *   each round changes the value and waits for the alarm; reported both from the change and from
 *   the reading that carried it (its timestamp), which is the part Triad adds.
 * Run: `npm run bench -- device-alarm` (needs mosquitto and snmpd; about 1 minute).
 * Env: BENCH_ALARM_ROUNDS (MQTT rounds, 100), BENCH_ALARM_SNMP_ROUNDS (4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { migrateToLatest, openDatabase } from '@triad/db';
import {
  buildTemplatesApp,
  loadTemplatesConfig,
  templatesMigrations,
  TEMPLATES_MIGRATION_TABLE,
} from '@triad/templates-service';
import { startMosquitto } from '../packages/device-drivers/src/test-support/mosquitto-server.js';
import { hotMqttStarter } from '../packages/device-drivers/src/test-support/mqtt-templates.js';
import { startSnmpd, TESTVALUE_OID } from '../packages/device-drivers/src/test-support/snmpd-server.js';
import {
  alarmWhen,
  mapSet,
  snmpPoint,
  snmpTemplate,
} from '../packages/device-drivers/src/test-support/snmp-templates.js';
import { percentile, printTable } from './bench-utils.js';

const ROUNDS = Number(process.env['BENCH_ALARM_ROUNDS'] ?? 100);
const SNMP_ROUNDS = Number(process.env['BENCH_ALARM_SNMP_ROUNDS'] ?? 4);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(path.join(tmpdir(), 'triad-alarm-bench-'));
const database = openDatabase({ sqliteFile: path.join(dir, 'templates.sqlite') });
await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
// A benchmark of the pipeline, not of the access checks: writes and device reads are open.
const config = loadTemplatesConfig(
  {},
  { demo: false, logLevel: 'silent', dataDir: dir, writeAccess: 'open', devicesReadAccess: 'open' },
);
const app = await buildTemplatesApp({ config, database: database as never });
await app.ready();

async function store(template: object): Promise<void> {
  const reply = await app.inject({ method: 'POST', url: '/templates', payload: template });
  if (reply.statusCode !== 201) throw new Error(`template not stored: ${reply.body}`);
}
async function addDevice(body: object): Promise<string> {
  const reply = await app.inject({ method: 'POST', url: '/devices', payload: body });
  if (reply.statusCode !== 201) throw new Error(`device not added: ${reply.body}`);
  return reply.json<{ id: string }>().id;
}
async function alarmCount(id: string): Promise<number> {
  return (await app.inject(`/devices/${id}/alarms`)).json<{ alarms: unknown[] }>().alarms.length;
}
/** Polls the alarm list until it has `count` alarms; returns when (performance.now()). */
async function until(id: string, count: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if ((await alarmCount(id)) === count) return performance.now();
    if (performance.now() > deadline) throw new Error(`no change to ${count} alarm(s) within ${timeoutMs} ms`);
    await sleep(1);
  }
}

const rows: (string | number)[][] = [];
/** Count, p50, p99 and max of the samples, as text with `digits` decimals. */
function stats(samples: readonly number[], digits: number): (string | number)[] {
  const sorted = [...samples].sort((a, b) => a - b);
  return [
    sorted.length,
    percentile(sorted, 50).toFixed(digits),
    percentile(sorted, 99).toFixed(digits),
    sorted.at(-1)!.toFixed(digits),
  ];
}
try {
  // MQTT.
  const broker = await startMosquitto();
  try {
    const template = { ...hotMqttStarter(), templateId: 'Hot MQTT' };
    await store(template);
    const id = await addDevice({
      name: 'sensor-7',
      templateId: 'Hot MQTT',
      templateVersion: template.templateVersion,
      variables: {},
      drivers: { 'svc-ds-drv-mqtt': { brokerUrl: broker.url } },
    });
    const origin = 'mqtt-sensor';
    const state = async () => (await app.inject(`/devices/${id}`)).json<{ state: string }>().state;
    for (let i = 0; i < 250 && (await state()) !== 'up'; i++) await sleep(20);
    if ((await state()) !== 'up') throw new Error('the MQTT device did not come up');
    const publisher = await mqtt.connectAsync(broker.url);
    const raise: number[] = [];
    const clear: number[] = [];
    const topic = `plant/line1/${origin}/telemetry`;
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = performance.now();
      await publisher.publishAsync(topic, JSON.stringify({ temperature: 80, humidity: 40 }));
      raise.push((await until(id, 1, 5000)) - t0);
      t0 = performance.now();
      await publisher.publishAsync(topic, JSON.stringify({ temperature: 20, humidity: 40 }));
      clear.push((await until(id, 0, 5000)) - t0);
    }
    await publisher.endAsync();
    for (const [what, samples] of [
      ['MQTT raise', raise],
      ['MQTT clear', clear],
    ] as const)
      rows.push([what, ...stats(samples, 1)]);
  } finally {
    await broker.close();
  }

  // SNMP, polled every 5 s.
  const snmpd = await startSnmpd();
  try {
    const template = snmpTemplate([
      mapSet('extend', [
        {
          ...snmpPoint('testvalue', TESTVALUE_OID, 'LONG', {}, 'OCTET_STRING'),
          alertConfig: { evaluations: [alarmWhen(601, 'datapoint.value > 50', 'Too high')] },
        },
      ]),
    ]);
    for (const set of template.datapointSets ?? [])
      for (const dp of set.datapoints) if (dp.addressConfig) dp.addressConfig.pollingGroup = '5s';
    await store({ ...template, templateId: 'Extend value' });
    const id = await addDevice({
      name: 'agent',
      templateId: 'Extend value',
      templateVersion: template.templateVersion,
      variables: { ICMP_IPAddress: '127.0.0.1' },
      drivers: { 'svc-ds-drv-snmp': { basicConfig: { port: snmpd.port, timeout: 500, retries: 0 } } },
    });
    const fromChange: number[] = [];
    const fromReading: number[] = [];
    for (let round = 0; round < SNMP_ROUNDS; round++) {
      const hot = round % 2 === 0;
      await snmpd.setTestValue(hot ? '80' : '20');
      const t0 = performance.now();
      const wall0 = Date.now();
      const seen = await until(id, hot ? 1 : 0, 15_000);
      const seenWall = Date.now() - (performance.now() - seen);
      fromChange.push(seen - t0);
      const values = (await app.inject(`/devices/${id}/values`)).json<{ values: { timestamp: number }[] }>().values;
      const read = values[0]?.timestamp ?? wall0;
      fromReading.push(seenWall - read);
    }
    rows.push(['SNMP change → alarm (5 s polling)', ...stats(fromChange, 0)]);
    rows.push(['SNMP reading → alarm in GET', ...stats(fromReading, 1)]);
  } finally {
    await snmpd.close();
  }
} finally {
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
printTable(['path', 'rounds', 'p50 ms', 'p99 ms', 'max ms'], rows);
