/**
 * The template service's device resource as the console reads it (docs/devices.md), and the pure
 * steps the device pages take with it: placeholders of a template, the body of a new device,
 * where a 422 problem belongs, and how a stream event changes what a device page shows. The
 * replies' types come from the service's OpenAPI document (`npm run generate`).
 */
import type { paths } from '../../generated/templates-api.js';
import type { ReplyBody, RequestBody } from '../../shell/api-types.js';
import { driverErrorSentence, severityText, withAlias } from './device-words.js';

/** `GET /devices/{id}`. */
export type Device = ReplyBody<paths['/devices/{id}']['get']>;

/** Why a driver does not reach the device (`lastError`). */
export type DeviceError = NonNullable<Device['lastError']>;

export type DeviceState = Device['state'];

/** One current value (`GET /devices/{id}/values`, the stream's `value` event). */
export type DeviceValue = ReplyBody<paths['/devices/{id}/values']['get']>['values'][number];

/** A datapoint's history over a range (`GET /devices/{id}/history`): raw points or buckets. */
export type DeviceHistory = ReplyBody<paths['/devices/{id}/history']['get']>;

/** The query of `GET /devices/{id}/history`. */
export type DeviceHistoryQuery = NonNullable<paths['/devices/{id}/history']['get']['parameters']['query']>;

/** One active alarm (`GET /devices/{id}/alarms`). */
export type DeviceAlarm = ReplyBody<paths['/devices/{id}/alarms']['get']>['alarms'][number];

/** An event as `GET /devices/{id}/events` lists it: its schema names `id`, `type` and `at` only. */
type ListedEvent = ReplyBody<paths['/devices/{id}/events']['get']>['events'][number];

/**
 * One event (`GET /devices/{id}/events`, the stream's other events): fields by type. The service's
 * schema leaves the fields by type open (`additionalProperties`), so they are written here; `type`
 * is one of `ListedEvent['type']`, read as any string because the stream may add types.
 */
export interface DeviceEvent extends Pick<ListedEvent, 'id' | 'at'> {
  readonly type: string;
  readonly severity?: number;
  readonly level?: string;
  readonly text?: string;
  readonly textHelp?: string;
  readonly datapointSetId?: string;
  readonly datapointId?: string;
  readonly row?: string | null;
  readonly value?: unknown;
  readonly reason?: string;
  /** Of an alarm event: the alarm's id (`DeviceAlarm['id']`). */
  readonly alarmId?: string;
  /** Of `alarm-acknowledged`: who acknowledged it. */
  readonly by?: string;
  /** Of a `problem`: `value-refused` or `payload-malformed`, what was wrong, how many so far. */
  readonly kind?: string;
  readonly message?: string;
  readonly count?: number;
  /** Of a `problem`: the same problems left out since the last one stored (one a minute is). */
  readonly notStored?: number;
  readonly state?: DeviceState;
  /** Of a `state` event; `at` in epoch milliseconds as stored. */
  readonly error?: Omit<DeviceError, 'at'> & { readonly at: string | number };
}

/** One entry of a 422 `TPL_ERR_DEVICE_INVALID`: a JSON Pointer into the request. */
export type DeviceProblem = NonNullable<ReplyBody<paths['/devices']['post'], 422>['errors']>[number];

/**
 * The body of `POST /devices`. Its schema types each driver's settings as a bare `type: object`,
 * which generates `Record<string, never>`; the settings are any JSON object, as typed here.
 */
export type NewDevice = Omit<RequestBody<paths['/devices']['post']>, 'drivers'> & {
  readonly drivers?: Readonly<Record<string, unknown>>;
};

const PLACEHOLDER = /\/\{([A-Za-z0-9_]+)\}\//g;

/**
 * The `/{NAME}/` placeholder names of a template document, in order of first use, from the places
 * the service fills them: `origin` and the `originTypes` entries.
 */
export function templatePlaceholders(document: unknown): string[] {
  if (!isObject(document)) return [];
  const text = JSON.stringify([memberOf(document, 'origin') ?? null, memberOf(document, 'originTypes') ?? null]);
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

/** The originTypes a template document declares, for the driver settings' skeleton. */
export function templateOriginTypes(document: unknown): string[] {
  const entries = isObject(document) ? memberOf(document, 'originTypes') : undefined;
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown) => {
    const type = isObject(entry) ? memberOf(entry, 'originType') : undefined;
    return typeof type === 'string' ? [type] : [];
  });
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A member of an object read from JSON, as unknown (what `object.key` reads). */
function memberOf(object: object, key: string): unknown {
  return Reflect.get(object, key);
}

/** One NAME=VALUE row of the form. */
export interface VariableRow {
  readonly name: string;
  readonly value: string;
}

/**
 * The rows for a newly chosen template: one per placeholder (keeping a value already typed for the
 * same name), then the other rows that hold something.
 */
export function variableRowsFor(placeholders: readonly string[], rows: readonly VariableRow[]): VariableRow[] {
  const typed = new Map(rows.map((row) => [row.name.trim(), row.value]));
  const others = rows.filter((row) => row.name.trim() !== '' && !placeholders.includes(row.name.trim()));
  return [...placeholders.map((name) => ({ name, value: typed.get(name) ?? '' })), ...others];
}

/** The variables to send: rows with a name and a value (an empty value counts as not filled). */
export function variablesOf(rows: readonly VariableRow[]): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name !== '' && row.value !== '') variables[name] = row.value;
  }
  return variables;
}

/**
 * The driver settings typed as JSON: an object of objects, or the problem (at `/drivers`, as the
 * service would put it) when it is not one. Blank means none.
 */
export function parseDrivers(text: string): { drivers: Record<string, unknown> } | { problem: DeviceProblem } {
  if (text.trim() === '') return { drivers: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: { path: '/drivers', message: `Not JSON: ${error instanceof Error ? error.message : ''}` } };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { problem: { path: '/drivers', message: 'Driver settings must be a JSON object keyed by originType' } };
  }
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { problem: { path: `/drivers/${key}`, message: `The settings of ${key} must be a JSON object` } };
    }
  }
  return { drivers: Object.fromEntries(Object.entries(parsed)) };
}

/** Which form field a problem belongs to: a variable (by name), a top-level field, or the form. */
export type ProblemPlace =
  { readonly field: 'variable'; readonly name: string } | { readonly field: 'name' | 'template' | 'drivers' | 'form' };

/** The field a problem's JSON Pointer points into. */
export function problemPlace(path: string): ProblemPlace {
  const [first, second] = path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (first === 'variables' && second !== undefined) return { field: 'variable', name: second };
  if (first === 'variables' || first === 'drivers') return { field: first === 'drivers' ? 'drivers' : 'form' };
  if (first === 'name') return { field: 'name' };
  if (first === 'templateId' || first === 'templateVersion') return { field: 'template' };
  return { field: 'form' };
}

/**
 * The name a person sees for the form field a problem's JSON Pointer names, for the summary of a
 * refused device (decision 0036: field names, never pointers): `/variables/IP` -> `Value of IP`.
 */
export function problemFieldLabel(path: string): string {
  const place = problemPlace(path);
  switch (place.field) {
    case 'variable':
      return `Value of ${place.name}`;
    case 'name':
      return 'Name';
    case 'template':
      return 'Template version';
    case 'drivers':
      return 'Driver settings';
    case 'form':
      return 'The device';
  }
}

/** The key that identifies a current value: set, datapoint and row. */
export function valueKey(value: Pick<DeviceValue, 'datapointSetId' | 'datapointId' | 'row'>): string {
  return `${value.datapointSetId}\u0000${value.datapointId}\u0000${value.row ?? ''}`;
}

/** The values with `value` in its datapoint's place (replacing the older reading), or appended. */
export function withValue(values: readonly DeviceValue[], value: DeviceValue): DeviceValue[] {
  const key = valueKey(value);
  const at = values.findIndex((v) => valueKey(v) === key);
  if (at < 0) return [...values, value];
  return values.map((v, i) => (i === at ? value : v));
}

function alarmKey(alarm: Pick<DeviceAlarm, 'datapointSetId' | 'datapointId' | 'row'> & { severity?: number }): string {
  return `${valueKey(alarm)}\u0000${alarm.severity ?? ''}`;
}

/** What a device page shows, changed by the stream's events. */
export interface DeviceView {
  readonly device: Device;
  readonly alarms: readonly DeviceAlarm[];
  readonly events: readonly DeviceEvent[];
}

/** How many recent events a device page keeps. */
export const RECENT_EVENTS = 50;

/**
 * The view after one stream event: `alarm-raised` adds the alarm (newest first, once),
 * `alarm-cleared` removes it, `alarm-acknowledged` / `-unacknowledged` set who and when on it,
 * `state` sets the device's state and lastError; every event goes to the top of the recent events
 * (once per id).
 */
export function withEvent(view: DeviceView, event: DeviceEvent): DeviceView {
  if (view.events.some((e) => e.id === event.id)) return view;
  const events = [event, ...view.events].slice(0, RECENT_EVENTS);
  if (event.type === 'state' && event.state !== undefined) {
    const lastError =
      event.error === undefined
        ? null
        : {
            ...event.error,
            at: typeof event.error.at === 'number' ? new Date(event.error.at).toISOString() : event.error.at,
          };
    return { ...view, events, device: { ...view.device, state: event.state, lastError } };
  }
  if ((event.type === 'alarm-raised' || event.type === 'alarm-cleared') && event.datapointId !== undefined) {
    const place = {
      datapointSetId: event.datapointSetId ?? '',
      datapointId: event.datapointId,
      row: event.row ?? null,
      ...(event.severity !== undefined ? { severity: event.severity } : {}),
    };
    const key = alarmKey(place);
    const others = view.alarms.filter((alarm) => alarmKey(alarm) !== key);
    if (event.type === 'alarm-cleared') return { ...view, events, alarms: others };
    const alarm: DeviceAlarm = {
      ...place,
      id: event.alarmId ?? '',
      severity: event.severity ?? 0,
      text: event.text ?? '',
      textHelp: event.textHelp ?? '',
      raisedAt: event.at,
      value: event.value ?? null,
      acknowledged: null,
    };
    return { ...view, events, alarms: [alarm, ...others] };
  }
  if ((event.type === 'alarm-acknowledged' || event.type === 'alarm-unacknowledged') && event.alarmId) {
    const acknowledged = event.type === 'alarm-acknowledged' ? { by: event.by ?? '', at: event.at } : null;
    const alarms = view.alarms.map((alarm) => (alarm.id === event.alarmId ? { ...alarm, acknowledged } : alarm));
    return { ...view, events, alarms };
  }
  return { ...view, events };
}

/** A value as a cell shows it: text as is, `null` as "no value", the rest as JSON. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * One line describing an event for the recent-events list, with the template's aliases when known
 * (`names`). Severities read by band (`Critical (801)`); a state change says the state only: why a
 * device is down is said once, in its facts.
 */
export function describeEvent(event: DeviceEvent, names?: (setId: string, datapointId: string) => string): string {
  const alias = event.datapointId ? names?.(event.datapointSetId ?? '', event.datapointId) : undefined;
  const name = event.datapointId ? (alias ?? `${event.datapointSetId ?? ''}/${event.datapointId}`) : '';
  const said = withAlias(event.text ?? '', event.datapointId ?? '', alias ?? event.datapointId ?? '');
  const where = name ? ` on ${name}${event.row ? ` row ${event.row}` : ''}` : '';
  switch (event.type) {
    case 'alarm-raised': {
      const severity = event.severity !== undefined ? ` (${severityText(event.severity)})` : '';
      return `Alarm raised${severity}${where}: ${said}`;
    }
    case 'alarm-cleared':
      return `Alarm cleared${where}: ${said}${event.reason ? ` (${event.reason})` : ''}`;
    case 'alarm-acknowledged':
      return `Alarm acknowledged${where} by ${event.by ?? 'someone'}: ${said}`;
    case 'alarm-unacknowledged':
      return `Alarm no longer acknowledged${where}: ${said}`;
    case 'problem': {
      const what = event.kind === 'payload-malformed' ? 'Unreadable message' : 'Value refused';
      const more = event.notStored ? `; ${event.notStored} more like it since the last one shown` : '';
      return `${what}${where}: ${event.message ?? ''} (${event.count ?? 1} so far${more})`;
    }
    case 'state':
      return event.state === 'down' && event.error
        ? `State down: ${driverErrorSentence(event.error.code).split('. ')[0] ?? ''}`
        : `State ${event.state ?? ''}`;
    case 'log':
      return `Log${event.level ? ` (${event.level})` : ''}${where}: ${said}`;
    default:
      return `${event.type}${where}`;
  }
}
