import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import {
  describeWithPrograms,
  MOSQUITTO,
  MOSQUITTO_INSTALL,
  startMosquitto,
  type MosquittoServer,
} from '@triad/device-drivers/testing';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

describeWithPrograms(
  'an MQTT device through the template service (real mosquitto)',
  [MOSQUITTO],
  MOSQUITTO_INSTALL,
  () => {
    let broker: MosquittoServer;
    let app: FastifyInstance;
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
    beforeAll(async () => {
      broker = await startMosquitto();
      // The broker comes from the service's setting (TRIAD_MQTT_URL), not from the device.
      app = await buildTestApp(database, { mqttUrl: broker.url });
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: createStarterTemplate('mqtt') });
      expect(stored.statusCode).toBe(201);
    });
    afterAll(async () => {
      await app?.close();
      await broker?.close();
      await database.close();
    });

    it('subscribes with the service broker, and the values a sensor publishes reach GET /values', async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/devices',
        payload: { name: 'sensor', templateId: 'example-mqtt', templateVersion: '1.0.0' },
      });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: string }>();
      await expect
        .poll(async () => (await app.inject(`/devices/${id}`)).json<{ state: string }>().state, { timeout: 5_000 })
        .toBe('up');
      const publisher = await mqtt.connectAsync(broker.url);
      try {
        await publisher.publishAsync(
          'plant/line1/mqtt-sensor/telemetry',
          JSON.stringify({ temperature: 21.5, humidity: 40 }),
        );
        await publisher.publishAsync(
          'plant/line1/other-sensor/telemetry',
          JSON.stringify({ temperature: 99, humidity: 1 }),
        );
        await expect
          .poll(
            async () =>
              (await app.inject(`/devices/${id}/values`))
                .json<{ values: { datapointId: string; value: unknown }[] }>()
                .values.find((v) => v.datapointId === 'temperature')?.value,
            { timeout: 5_000 },
          )
          .toBe(21.5);
      } finally {
        await publisher.endAsync();
      }
    });
  },
);
