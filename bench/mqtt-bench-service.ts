import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DriverRegistry } from '@triad/device-drivers';
import type { DeviceTemplate } from '@triad/device-templates';
import { migrateToLatest, openDatabase } from '@triad/db';
import {
  buildTemplatesApp,
  loadTemplatesConfig,
  templatesMigrations,
  TEMPLATES_MIGRATION_TABLE,
  type TemplatesDatabase,
} from '@triad/templates-service';
import { hotMqttStarter } from '../packages/device-drivers/src/test-support/mqtt-templates.js';

/** The starter with its "Too hot" alarm, and the publisher's clock as a datapoint. */
export function benchMqttTemplate(): DeviceTemplate {
  const starter = hotMqttStarter();
  const set = starter.datapointSets?.[0];
  const address = set?.datapoints[0]?.addressConfig;
  if (set === undefined || address === undefined) throw new Error('the MQTT starter changed shape');
  set.datapoints.push({
    commonConfig: { datapointId: 'sentAt', datapointType: 'DATAPOINT' },
    addressConfig: { ...address, originAddress: 'payload.sentAt' },
  });
  return starter;
}

/** A template service of the MQTT benches, its devices stored and collecting. */
export interface MqttBenchService {
  /** The value of a `/metrics` sample without labels (NaN when absent). */
  readonly metric: (name: string) => Promise<number>;
  readonly close: () => Promise<void>;
}

/**
 * The template service of the MQTT benches (`buildTemplatesApp` on a SQLite file in a temporary
 * folder, collection on, the drivers of `registry`), with the bench template stored and `devices`
 * devices of it (`sensor-0`, ...; origins `/sensor-N/`) created through `POST /devices`.
 */
export async function startMqttBenchService(options: {
  readonly registry: DriverRegistry;
  readonly mqttUrl: string;
  readonly history: boolean;
  readonly devices: number;
}): Promise<MqttBenchService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'triad-mqtt-bench-'));
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: path.join(dir, 'templates.sqlite') });
  let app: Awaited<ReturnType<typeof buildTemplatesApp>> | undefined;
  const close = async () => {
    await app?.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    const config = loadTemplatesConfig(
      {},
      {
        demo: false,
        logLevel: 'silent',
        writeAccess: 'open',
        devicesReadAccess: 'open',
        collectDevices: true,
        secretKey: randomBytes(32).toString('hex'),
        historyEnabled: options.history,
        // Floods outrun the writer for a while; measure the cost of every value, none dropped.
        historyQueueLimit: 5_000_000,
        metricsMaxSeries: 1,
        mqttUrl: options.mqttUrl,
      },
    );
    const service = await buildTemplatesApp({ config, database, registry: options.registry });
    app = service;
    await service.ready();
    const stored = await service.inject({
      method: 'POST',
      url: '/templates',
      payload: { ...benchMqttTemplate(), templateId: 'bench-mqtt', origin: '/{SENSOR}/' },
    });
    if (stored.statusCode >= 300) throw new Error(stored.body);
    for (let d = 0; d < options.devices; d++) {
      const reply = await service.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name: `sensor-${d}`,
          templateId: 'bench-mqtt',
          templateVersion: '1.0.0',
          variables: { SENSOR: `sensor-${d}` },
        },
      });
      if (reply.statusCode !== 201) throw new Error(reply.body);
    }
    return {
      metric: async (name) => {
        const metrics = (await service.inject({ method: 'GET', url: '/metrics' })).body;
        return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
