import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStarterTemplate } from '@triad/device-templates';
import {
  describeWithPrograms,
  MOSQUITTO,
  MOSQUITTO_INSTALL,
  startMosquitto,
  type MosquittoServer,
} from '@triad/device-drivers/testing';
import { alertConfig } from '../test-support/ping-template.js';
import {
  CLUSTER_WAIT as WAIT,
  describeOnPostgres,
  fetchJson as json,
  startTemplatesCluster,
  type TemplatesCluster,
} from '../test-support/templates-cluster.js';
import { collectionSplit, type TemplatesProcess } from '../test-support/templates-process.js';

// Two template services share six MQTT sensors on a real mosquitto, each with an alarm while its
// temperature is above 50. The instance collecting most of them is killed with SIGKILL; while
// its sensors are taken over, half of them cool down. The new collector must clear exactly those
// alarms and raise none of the others again.

/** The MQTT starter with one device per `SENSOR` (the topic level) and a "Too hot" alarm. */
function sensorTemplate(): Record<string, unknown> {
  const template = createStarterTemplate('mqtt', { templateId: 'Sensor' }) as {
    origin: string;
    datapointSets: { datapoints: Record<string, unknown>[] }[];
  };
  template.origin = '/{SENSOR}/';
  template.datapointSets[0]!.datapoints[0]!['alertConfig'] = alertConfig(
    'datapoint.value > 50',
    701,
    'Too hot',
    'The sensor reads above 50',
  );
  return template;
}

interface EventsReply {
  events: { type: string; reason?: string }[];
}

describeOnPostgres('a takeover of MQTT sensors on PostgreSQL', (postgresUrl) => {
  describeWithPrograms('with a real mosquitto', [MOSQUITTO], MOSQUITTO_INSTALL, () => {
    let broker: MosquittoServer;
    let cluster: TemplatesCluster;
    let publisher: MqttClient;
    const sensors = new Map<string, string>();

    const publish = (id: string, temperature: number) =>
      publisher.publishAsync(`plant/line1/${sensors.get(id)}/telemetry`, JSON.stringify({ temperature, humidity: 40 }));
    const events = async (service: TemplatesProcess, id: string, type: string) =>
      (await json<EventsReply>(`${service.url}/devices/${id}/events?limit=1000`)).events.filter((e) => e.type === type);
    const alarms = async (service: TemplatesProcess, id: string) =>
      (await json<{ alarms: { text: string }[] }>(`${service.url}/devices/${id}/alarms`)).alarms;

    beforeAll(async () => {
      broker = await startMosquitto();
      cluster = await startTemplatesCluster(postgresUrl, 2, { TRIAD_MQTT_URL: broker.url });
      publisher = await mqtt.connectAsync(broker.url);
      const [first, second] = cluster.services;
      await json(`${first!.url}/templates`, 'POST', sensorTemplate());
      for (let n = 0; n < 6; n++) {
        const through = n % 2 === 0 ? first! : second!;
        const body = {
          name: `sensor-${n}`,
          templateId: 'Sensor',
          templateVersion: '1.0.0',
          variables: { SENSOR: `sensor-${n}` },
        };
        sensors.set((await json<{ id: string }>(`${through.url}/devices`, 'POST', body)).id, `sensor-${n}`);
      }
    }, 360_000);

    afterAll(async () => {
      await publisher?.endAsync();
      await cluster?.close();
      await broker?.close();
    });

    it('clears on takeover the alarms that went away and raises none again', async () => {
      const ids = [...sensors.keys()];
      await expect.poll(() => collectionSplit(cluster.alive(), ids), WAIT).toBeDefined();
      const [first, second] = cluster.services;
      for (const id of ids) {
        await expect
          .poll(async () => (await json<{ state: string }>(`${first!.url}/devices/${id}`)).state, WAIT)
          .toBe('up');
        await publish(id, 60);
      }
      for (const id of ids) await expect.poll(() => alarms(second!, id), WAIT).toMatchObject([{ text: 'Too hot' }]);

      // Read again once whole: while the two services hand a device over, the logs can show it in neither.
      await expect.poll(() => collectionSplit(cluster.alive(), ids), WAIT).toBeDefined();
      const split = collectionSplit(cluster.alive(), ids)!;
      const victimIndex = split[0]!.size >= split[1]!.size ? 0 : 1;
      const victim = cluster.services[victimIndex]!;
      const survivor = cluster.services[1 - victimIndex]!;
      const moved = [...split[victimIndex]!];
      const cooled = moved.slice(0, Math.ceil(moved.length / 2));
      const starts = new Map<string, number>();
      for (const id of moved) starts.set(id, (await events(survivor, id, 'state')).length);
      victim.child.kill('SIGKILL');
      expect(await victim.exited).toBe('SIGKILL');

      await expect.poll(() => collectionSplit(cluster.alive(), ids)?.[0]?.size, WAIT).toBe(ids.length);
      for (const id of moved)
        await expect
          .poll(async () => (await events(survivor, id, 'state')).length, WAIT)
          .toBeGreaterThan(starts.get(id)!);
      // The sensors report again, to their new collector.
      for (const id of moved) await publish(id, cooled.includes(id) ? 20 : 60);
      for (const id of cooled)
        await expect
          .poll(async () => (await events(survivor, id, 'alarm-cleared')).map((e) => e.reason), WAIT)
          .toEqual(['not-raised-after-restart']);
      for (const id of moved.filter((m) => !cooled.includes(m)))
        await expect
          .poll(async () => {
            const { values } = await json<{ values: { datapointId: string; value: unknown; timestamp: number }[] }>(
              `${survivor.url}/devices/${id}/values`,
            );
            return values.find((v) => v.datapointId === 'temperature')?.value;
          }, WAIT)
          .toBe(60);

      for (const id of ids) {
        const cool = cooled.includes(id);
        expect(await alarms(survivor, id), `alarms of ${sensors.get(id)}`).toHaveLength(cool ? 0 : 1);
        expect(await events(survivor, id, 'alarm-raised'), `raises of ${sensors.get(id)}`).toHaveLength(1);
        expect(await events(survivor, id, 'alarm-cleared'), `clears of ${sensors.get(id)}`).toHaveLength(cool ? 1 : 0);
      }
    }, 180_000);
  });
});
