import { isObject } from '@triad/common';
import type { DriverRegistry } from '@triad/device-drivers';
import type { DatapointResult } from '@triad/device-templates';
import {
  deviceAlarmId,
  type DeviceAlarmRecord,
  type DeviceEventRecord,
  type DeviceRecord,
} from '../model/device-record.js';
import { hideSecrets } from '../devices/device-secrets.js';
import { hideVariables } from '../devices/secret-variables.js';
import { rowOf } from '../model/device-place.js';

/**
 * How much of a driver error a caller sees. Only a caller who may write the device learns why it
 * cannot be read: `refused` against `timeout` tells an open port from a closed one, so to anyone
 * else every error reads `unavailable` with a fixed message (issue 23).
 */
export type ErrorDetail = 'full' | 'hidden';

/** The message of a hidden driver error. */
export const HIDDEN_ERROR_MESSAGE = 'The device cannot be read; a token that may write devices shows why';

function presentError<E extends { readonly code: string; readonly message: string }>(error: E, detail: ErrorDetail): E {
  return detail === 'full' ? error : { ...error, code: 'unavailable', message: HIDDEN_ERROR_MESSAGE };
}

/**
 * A device as clients see it: driver secrets and secret variables shown as "hidden", times in
 * ISO 8601, the error by `detail`.
 */
export function presentDevice(device: DeviceRecord, registry: DriverRegistry, detail: ErrorDetail) {
  return {
    id: device.id,
    name: device.name,
    templateId: device.templateId,
    templateVersion: device.templateVersion,
    variables: hideVariables(device.variables),
    drivers: hideSecrets(device.drivers, registry),
    state: device.state,
    lastError:
      device.lastError === null
        ? null
        : presentError({ ...device.lastError, at: new Date(device.lastError.at).toISOString() }, detail),
    createdAt: new Date(device.createdAt).toISOString(),
    updatedAt: new Date(device.updatedAt).toISOString(),
  };
}

export function presentAlarm(alarm: DeviceAlarmRecord) {
  return {
    id: deviceAlarmId(alarm),
    severity: alarm.severity,
    text: alarm.text,
    textHelp: alarm.textHelp,
    datapointSetId: alarm.datapointSetId,
    datapointId: alarm.datapointId,
    row: alarm.row,
    raisedAt: new Date(alarm.raisedAt).toISOString(),
    value: alarm.value,
    acknowledged:
      alarm.acknowledged === null
        ? null
        : { by: alarm.acknowledged.by, at: new Date(alarm.acknowledged.at).toISOString() },
  };
}

/** An event; a state event's driver error by `detail` (see `ErrorDetail`). */
export function presentEvent(event: DeviceEventRecord, detail: ErrorDetail) {
  const error = event.body['error'];
  const body =
    event.type === 'state' &&
    isObject(error) &&
    typeof error['code'] === 'string' &&
    typeof error['message'] === 'string'
      ? { ...event.body, error: presentError({ ...error, code: error['code'], message: error['message'] }, detail) }
      : event.body;
  return { id: String(event.seq), type: event.type, at: new Date(event.at).toISOString(), ...body };
}

const lastErrorSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['code', 'message', 'originType', 'at'],
  properties: {
    code: {
      type: 'string',
      description:
        'timeout, refused, unreachable, authentication, protocol, configuration, unsupported, forbidden; ' +
        'unavailable for a caller who may not write devices (the reason is hidden from it)',
    },
    message: { type: 'string' },
    originType: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

export const deviceSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'templateId',
    'templateVersion',
    'variables',
    'drivers',
    'state',
    'lastError',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    templateId: { type: 'string' },
    templateVersion: { type: 'string' },
    variables: {
      type: 'object',
      description: 'variables by name; one that fills a driver secret (a community, a password) reads "hidden"',
      additionalProperties: { type: 'string' },
    },
    drivers: {
      type: 'object',
      description: 'driver settings by originType; secrets (communities, passwords) read "hidden"',
      additionalProperties: { type: 'object', additionalProperties: true },
    },
    state: { type: 'string', enum: ['unknown', 'up', 'down'] },
    lastError: lastErrorSchema,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const deviceAlarmSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'severity',
    'text',
    'textHelp',
    'datapointSetId',
    'datapointId',
    'row',
    'raisedAt',
    'value',
    'acknowledged',
  ],
  properties: {
    id: {
      type: 'string',
      description: 'names this raised alarm in /devices/{id}/alarms/{alarmId}/acknowledge and /unacknowledge',
    },
    severity: { type: 'integer' },
    text: { type: 'string' },
    textHelp: { type: 'string' },
    datapointSetId: { type: 'string' },
    datapointId: { type: 'string' },
    row: { type: ['string', 'null'], description: 'table row key; null for a map set' },
    raisedAt: { type: 'string', format: 'date-time' },
    value: { description: 'the datapoint value when the alarm was raised' },
    acknowledged: {
      type: ['object', 'null'],
      description: 'who acknowledged the alarm and when; null while it is not acknowledged',
      additionalProperties: false,
      required: ['by', 'at'],
      properties: {
        by: { type: 'string', description: '`token <id>`, `admin token`, or `anonymous` when writes are open' },
        at: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

/**
 * One current value of a device, as `GET /devices/{id}/values`, the `value` events of its stream
 * and the instances among themselves pass it (`deviceValueSchema`).
 */
export interface DeviceValue {
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly row: string | null;
  readonly value: unknown;
  readonly rawValue: unknown;
  readonly unit?: string;
  readonly quality: string;
  readonly timestamp: number;
}

/** A value the pipeline produced, as clients see it: the row as text (null for a map set), no value as null. */
export function presentDeviceValue(result: DatapointResult): DeviceValue {
  return {
    datapointSetId: result.datapointSetId,
    datapointId: result.datapointId,
    row: rowOf(result.tableIndex),
    value: result.value ?? null,
    rawValue: result.rawValue ?? null,
    ...(result.unit !== undefined ? { unit: result.unit } : {}),
    quality: result.quality,
    timestamp: result.timestamp,
  };
}

/** Whether a value read back from the wire (a reply, a stream event) has the shape of a `DeviceValue`. */
export function isDeviceValue(value: unknown): value is DeviceValue {
  return (
    isObject(value) &&
    typeof value.datapointSetId === 'string' &&
    typeof value.datapointId === 'string' &&
    (typeof value.row === 'string' || value.row === null) &&
    'value' in value &&
    'rawValue' in value &&
    (value.unit === undefined || typeof value.unit === 'string') &&
    typeof value.quality === 'string' &&
    typeof value.timestamp === 'number'
  );
}

export const deviceValueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['datapointSetId', 'datapointId', 'row', 'value', 'rawValue', 'quality', 'timestamp'],
  properties: {
    datapointSetId: { type: 'string' },
    datapointId: { type: 'string' },
    row: { type: ['string', 'null'] },
    value: {},
    rawValue: {},
    unit: { type: 'string' },
    quality: { type: 'string', enum: ['good', 'bad', 'uncertain'] },
    timestamp: { type: 'integer', description: 'epoch milliseconds of the reading' },
  },
} as const;

export const deviceEventSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'type', 'at'],
  properties: {
    id: { type: 'string', description: 'monotonic event id (also the SSE id)' },
    type: {
      type: 'string',
      enum: [
        'alarm-raised',
        'alarm-cleared',
        'alarm-acknowledged',
        'alarm-unacknowledged',
        'log',
        'state',
        'problem',
        'trap',
      ],
      description:
        'problem: a refused reading (kind value-refused) or an unreadable message (kind payload-malformed), ' +
        'with message, count so far and notStored (left out since the last stored one; one a minute is stored). ' +
        'trap: an SNMP trap or inform from the device (kind trap or inform), with version, source, trapOid, ' +
        'trapName (MODULE::name when a MIB names it), upTime, varbinds (the first 16: oid, name, value as text ' +
        'of at most 120 characters), varbindsOmitted and notStored (at most 60 are stored a minute)',
    },
    at: { type: 'string', format: 'date-time' },
    alarmId: { type: 'string', description: 'of an alarm event: the id of the alarm (GET /devices/{id}/alarms)' },
    by: { type: 'string', description: 'of alarm-acknowledged: who acknowledged it' },
  },
} as const;
