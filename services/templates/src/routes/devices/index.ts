import type { FastifyRequest } from 'fastify';
import type { DriverRegistry, OpcuaKeyPair } from '@triad/device-drivers';
import { kitProblems } from '@triad/service-kit';
import type { DeviceCommands } from '../../commands/device-commands.js';
import type { DeviceCollection } from '../../instances/device-collection.js';
import type { AccessPolicy } from '../../policies/access-policy.js';
import { presentAlarm, presentDevice, presentEvent, type ErrorDetail } from '../../presenters/device-presenter.js';
import type { DeviceRepository } from '../../repositories/device-repository.js';
import type { SchemaTypedApp } from '@triad/service-kit';
import { streamDevice } from './stream-device.js';
import { deviceAlarmId } from '../../model/device-record.js';
import { templatesProblems } from '../../errors.js';
import {
  createDeviceSchema,
  deleteDeviceSchema,
  acknowledgeDeviceAlarmSchema,
  deviceAlarmsSchema,
  unacknowledgeDeviceAlarmSchema,
  deviceEventsSchema,
  deviceStreamSchema,
  deviceValuesSchema,
  listDevicesSchema,
  patchDeviceSchema,
  readDeviceSchema,
  discoverDevicesSchema,
  readDeviceHistorySchema,
} from './schemas.js';
import { readDeviceHistory } from './device-history.js';
import type { DeviceHistoryRepository } from '../../repositories/device-history-repository.js';
import { discoverDevices } from '../../commands/discover-devices.js';
import type { PatternCache } from '../../matching/pattern-cache.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';

export interface DevicesRoutesOptions {
  readonly commands: DeviceCommands;
  readonly devices: DeviceRepository;
  readonly collection: DeviceCollection;
  readonly registry: DriverRegistry;
  readonly templates: TemplateRepository;
  readonly patterns: PatternCache;
  /** Decides who sees why a device cannot be read (writers only), and names who acknowledges. */
  readonly access: Pick<AccessPolicy, 'mayWrite' | 'whoIs'>;
  /** The stored values (`GET /devices/{id}/history`). */
  readonly history: DeviceHistoryRepository;
  /** How long raw values are kept, ms (older ranges are answered from the minute rows). */
  readonly historyRawRetentionMs: number;
  /** The OPC UA client certificate discovery presents (the one devices use). */
  readonly opcuaKeyPair?: () => Promise<OpcuaKeyPair>;
}

/** The device resource; register with `prefix: '/devices'`. */
export function devicesRoutes(app: SchemaTypedApp, options: DevicesRoutesOptions, done: (error?: Error) => void): void {
  const { commands, registry, collection, access } = options;
  const detailFor = async (request: FastifyRequest): Promise<ErrorDetail> =>
    (await access.mayWrite(request)) ? 'full' : 'hidden';

  app.post('', { schema: createDeviceSchema }, async (request, reply) => {
    const device = await commands.create(request.body);
    return reply
      .status(201)
      .header('location', `/devices/${encodeURIComponent(device.id)}`)
      .send(presentDevice(device, registry, 'full'));
  });
  app.post('/discover', { schema: discoverDevicesSchema }, async (request) => {
    const results = await discoverDevices(request.body, { ...options, commands });
    return {
      results: results.map((r) =>
        r.device === undefined ? r : { ...r, device: presentDevice(r.device, registry, 'full') },
      ),
    };
  });
  app.get('', { schema: listDevicesSchema }, async (request) => {
    const detail = await detailFor(request);
    return { devices: (await options.devices.list()).map((device) => presentDevice(device, registry, detail)) };
  });
  app.get('/:id', { schema: readDeviceSchema }, async (request) =>
    presentDevice(await commands.find(request.params.id), registry, await detailFor(request)),
  );
  app.patch('/:id', { schema: patchDeviceSchema }, async (request) =>
    presentDevice(await commands.update(request.params.id, request.body), registry, 'full'),
  );
  app.delete('/:id', { schema: deleteDeviceSchema }, async (request, reply) => {
    await commands.delete(request.params.id);
    return reply.status(204).send();
  });
  app.get('/:id/values', { schema: deviceValuesSchema }, async (request) => {
    await commands.find(request.params.id);
    return { values: await collection.values(request.params.id) };
  });
  app.get('/:id/alarms', { schema: deviceAlarmsSchema }, async (request) => {
    await commands.find(request.params.id);
    return { alarms: (await options.devices.alarms(request.params.id)).map(presentAlarm) };
  });
  for (const [suffix, schema, undo] of [
    ['acknowledge', acknowledgeDeviceAlarmSchema, false],
    ['unacknowledge', unacknowledgeDeviceAlarmSchema, true],
  ] as const) {
    app.post(`/:id/alarms/:alarmId/${suffix}`, { schema }, async (request) => {
      const { id, alarmId } = request.params;
      await commands.find(id);
      const key = (await options.devices.alarms(id)).find((alarm) => deviceAlarmId(alarm) === alarmId);
      const done =
        key && (await options.devices.acknowledge(id, key, undo ? null : await access.whoIs(request), Date.now()));
      if (!done)
        throw templatesProblems.create(
          'TPL_ERR_DEVICE_ALARM_NOT_FOUND',
          `Device ${id} has no raised alarm ${alarmId}: it may have cleared. List them with GET /devices/${id}/alarms`,
        );
      if (done.event) collection.announce(id, done.event);
      return presentAlarm(done.alarm);
    });
  }
  app.get('/:id/events', { schema: deviceEventsSchema }, async (request) => {
    await commands.find(request.params.id);
    const since = parseSince(request.query.since);
    const events = await options.devices.events(request.params.id, since, request.query.limit);
    const detail = await detailFor(request);
    return { events: events.map((event) => presentEvent(event, detail)) };
  });
  app.get('/:id/history', { schema: readDeviceHistorySchema }, async (request) =>
    readDeviceHistory(request.params.id, request.query, {
      commands,
      templates: options.templates,
      history: options.history,
      rawRetentionMs: options.historyRawRetentionMs,
    }),
  );
  app.get('/:id/stream', { schema: deviceStreamSchema }, async (request, reply) => {
    await commands.find(request.params.id);
    await streamDevice(request, reply, collection, request.params.id, await detailFor(request));
  });
  done();
}

function parseSince(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const at = /^\d+$/.test(since) ? Number(since) : Date.parse(since);
  if (!Number.isFinite(at))
    throw kitProblems.create('SVC_ERR_BAD_REQUEST', `since must be ISO 8601 or epoch milliseconds, not ${since}`);
  return at;
}
