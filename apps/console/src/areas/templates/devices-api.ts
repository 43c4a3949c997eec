/**
 * The template service's device endpoints as the device pages use them (same origin). Writes send
 * `Authorization: Bearer <token>` when a write token was given (the service asks for one only when
 * it runs with TRIAD_TEMPLATES_ADMIN_TOKEN). Every function throws `TemplatesApiError` for a reply
 * it did not ask for (401 and 403 included, so the page can ask for the token).
 */
import type {
  Device,
  DeviceAlarm,
  DeviceEvent,
  DeviceHistory,
  DeviceHistoryQuery,
  DeviceProblem,
  NewDevice,
} from './device-wire.js';
import { fail, getJson, problemOf, refused, templateUrl, templatesClient } from './templates-api.js';

/** The path of a device's resource. */
export function deviceUrl(id: string): string {
  return `/devices/${encodeURIComponent(id)}`;
}

function writeHeaders(token: string | undefined, json: boolean): Record<string, string> {
  return {
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/**
 * The headers of a device read: device reads need a token by default (TRIAD_DEVICES_READ_ACCESS);
 * the write token reads too.
 */
export function readHeaders(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The options of a device read: JSON, with the token when one was given. */
function readInit(
  token: string | undefined,
  signal: AbortSignal | undefined,
): { readonly headers: Record<string, string>; readonly signal?: AbortSignal } {
  return { headers: { accept: 'application/json', ...readHeaders(token) }, ...(signal ? { signal } : {}) };
}

/** `GET /devices`: every device, oldest first. */
export async function listDevices(token: string | undefined, signal?: AbortSignal): Promise<readonly Device[]> {
  const { data, error, response } = await templatesClient.GET('/devices', readInit(token, signal));
  return data === undefined ? refused(response, error) : data.devices;
}

/** `GET /devices/{id}`. */
export async function readDevice(id: string, token: string | undefined, signal?: AbortSignal): Promise<Device> {
  const { data, error, response } = await templatesClient.GET('/devices/{id}', {
    params: { path: { id } },
    ...readInit(token, signal),
  });
  return data === undefined ? refused(response, error) : data;
}

/** `GET /devices/{id}/alarms`: the active alarms, newest first. */
export async function readAlarms(
  id: string,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<readonly DeviceAlarm[]> {
  const { data, error, response } = await templatesClient.GET('/devices/{id}/alarms', {
    params: { path: { id } },
    ...readInit(token, signal),
  });
  return data === undefined ? refused(response, error) : data.alarms;
}

/** `GET /devices/{id}/events?limit=`: the newest events, newest first. */
export async function readEvents(
  id: string,
  limit: number,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<readonly DeviceEvent[]> {
  const { data, error, response } = await templatesClient.GET('/devices/{id}/events', {
    params: { path: { id }, query: { limit } },
    ...readInit(token, signal),
  });
  return data === undefined ? refused(response, error) : data.events;
}

/**
 * `GET /devices/{id}/history?set=&datapoint=&row=&from=&to=`: one datapoint's values over a range,
 * raw or in buckets as the service chooses (decision 0050).
 */
export async function readHistory(
  id: string,
  query: DeviceHistoryQuery,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<DeviceHistory> {
  const { data, error, response } = await templatesClient.GET('/devices/{id}/history', {
    params: { path: { id }, query },
    ...readInit(token, signal),
  });
  return data === undefined ? refused(response, error) : data;
}

/** `GET /templates/{id}/{version}?format=json`: the template document. */
export function readTemplateDocument(templateId: string, templateVersion: string): Promise<unknown> {
  return getJson(`${templateUrl(templateId, templateVersion)}?format=json`);
}

/** The outcome of adding a device: created, or refused with the service's problems (422). */
export type CreateOutcome =
  | { readonly kind: 'created'; readonly device: Device }
  | { readonly kind: 'invalid'; readonly problems: readonly DeviceProblem[]; readonly detail: string };

/** `POST /devices`. */
export async function createDevice(device: NewDevice, token: string | undefined): Promise<CreateOutcome> {
  const response = await fetch('/devices', {
    method: 'POST',
    headers: writeHeaders(token, true),
    body: JSON.stringify(device),
  });
  if (response.status === 201) return { kind: 'created', device: (await response.json()) as Device };
  if (response.status === 422) {
    const problem = await problemOf<DeviceProblem>(response);
    return { kind: 'invalid', problems: problem.errors ?? [], detail: problem.detail ?? problem.title ?? '' };
  }
  return fail(response);
}

/**
 * `POST /devices/{id}/alarms/{alarmId}/acknowledge` (or `unacknowledge` when `undo`): the alarm as
 * it is now, with who and when (null after an undo). A write: it needs the write token.
 */
export async function acknowledgeAlarm(
  id: string,
  alarmId: string,
  undo: boolean,
  token: string | undefined,
): Promise<DeviceAlarm> {
  const url = `${deviceUrl(id)}/alarms/${encodeURIComponent(alarmId)}/${undo ? 'unacknowledge' : 'acknowledge'}`;
  const response = await fetch(url, { method: 'POST', headers: writeHeaders(token, false) });
  if (!response.ok) return fail(response);
  return (await response.json()) as DeviceAlarm;
}

/** `DELETE /devices/{id}`: the device, its alarms and events are gone. */
export async function deleteDevice(id: string, token: string | undefined): Promise<void> {
  const response = await fetch(deviceUrl(id), { method: 'DELETE', headers: writeHeaders(token, false) });
  if (!response.ok) return fail(response);
}
