import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate, type CliIo } from '@triad/device-templates';
import {
  describeWithPrograms,
  MOSQUITTO,
  MOSQUITTO_INSTALL,
  startMosquitto,
  type MosquittoServer,
} from '@triad/device-drivers/testing';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';
import { createDevicesCommand } from '../../cli/devices-command.js';

/** Waits until the device is up and returns its id. */
async function addSensor(app: FastifyInstance, name: string): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/devices',
    payload: { name, templateId: 'example-mqtt', templateVersion: '1.0.0' },
  });
  expect(created.statusCode).toBe(201);
  const { id } = created.json<{ id: string }>();
  await expect
    .poll(async () => (await app.inject(`/devices/${id}`)).json<{ state: string }>().state, { timeout: 5_000 })
    .toBe('up');
  return id;
}

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

    it('stores a refused value and a malformed payload as problem events, one a minute per kind', async () => {
      const id = await addSensor(app, 'problems');
      const publisher = await mqtt.connectAsync(broker.url);
      const topic = 'plant/line1/mqtt-sensor/telemetry';
      try {
        await publisher.publishAsync(topic, JSON.stringify({ temperature: 'warm', humidity: 40 }));
        await publisher.publishAsync(topic, JSON.stringify({ temperature: '1,5', humidity: 41 }));
        await publisher.publishAsync(topic, '{"temperature": ');
        await publisher.publishAsync(topic, JSON.stringify({ temperature: '22.5', humidity: 42 }));
        const temperature = async () =>
          (await app.inject(`/devices/${id}/values`))
            .json<{ values: { datapointId: string; value: unknown; quality: string }[] }>()
            .values.find((v) => v.datapointId === 'temperature');
        await expect.poll(temperature, { timeout: 5_000 }).toMatchObject({ value: 22.5, quality: 'good' });
        const problems = async () =>
          (await app.inject(`/devices/${id}/events`))
            .json<{ events: { type: string; kind?: string; message?: string; count?: number }[] }>()
            .events.filter((e) => e.type === 'problem');
        await expect.poll(async () => (await problems()).length, { timeout: 5_000 }).toBe(2);
        const stored = await problems();
        const refused = stored.find((e) => e.kind === 'value-refused');
        const malformed = stored.find((e) => e.kind === 'payload-malformed');
        expect(refused).toMatchObject({ kind: 'value-refused', datapointId: 'temperature', count: 1, notStored: 0 });
        expect(refused?.message).toContain('"warm" is not a valid DOUBLE');
        expect(malformed).toMatchObject({ kind: 'payload-malformed', count: 1 });
        expect(malformed?.message).toContain('is not valid JSON');
      } finally {
        await publisher.endAsync();
      }
    });

    it('devices probe prints the problem lines of what it reads', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'triad-probe-mqtt-'));
      let out = '';
      const io: CliIo = {
        stdout: { write: (text: string) => (out += text) },
        stderr: { write: () => undefined },
        cwd: dir,
        exitCode: 0,
        readStdin: () => Promise.resolve(new Uint8Array()),
      };
      const stop = new AbortController();
      const publisher = await mqtt.connectAsync(broker.url);
      try {
        await writeFile(path.join(dir, 'mqtt.ndst.json'), JSON.stringify(createStarterTemplate('mqtt')));
        const command = createDevicesCommand(io, { env: { TRIAD_MQTT_URL: broker.url }, signal: stop.signal });
        command.exitOverride();
        const probing = command.parseAsync(['probe', 'mqtt.ndst.json'], { from: 'user' });
        const topic = 'plant/line1/mqtt-sensor/telemetry';
        // The probe subscribes asynchronously: publish until a line shows.
        await expect
          .poll(
            async () => {
              await publisher.publishAsync(topic, JSON.stringify({ temperature: 'hot', humidity: 1 }));
              return out;
            },
            { timeout: 5_000, interval: 200 },
          )
          .toMatch(/problem value-refused #1: telemetry\/temperature: "hot" is not a valid DOUBLE/);
        stop.abort();
        await probing;
      } finally {
        stop.abort();
        await publisher.endAsync();
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
