import { errorResponse, errorResponses, PROBLEM_ERROR_BODY } from '@triad/service-kit';
import {
  deviceAlarmSchema,
  deviceEventSchema,
  deviceSchema,
  deviceValueSchema,
} from '../../presenters/device-presenter.js';
import { ALARM_ID_LENGTH } from '../../model/device-record.js';
import { deviceHistoryReplySchema } from '../../presenters/history-presenter.js';
import { MAX_HISTORY_POINTS } from '../../model/device-history.js';

const params = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', minLength: 1, maxLength: 80 } },
} as const;

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  templateId: { type: 'string', pattern: '^[A-Za-z0-9_ -]{1,80}$' },
  templateVersion: { type: 'string', minLength: 1, maxLength: 128 },
  variables: {
    type: 'object',
    maxProperties: 100,
    additionalProperties: { type: 'string', maxLength: 1000 },
    description:
      "values of the template's /{NAME}/ placeholders (names of letters, digits and _), " +
      'e.g. {"ICMP_IPAddress": "10.0.0.7"}',
  },
  drivers: {
    type: 'object',
    maxProperties: 20,
    additionalProperties: { type: 'object' },
    description:
      "per originType, settings merged over the template's originTypes entry (ports, communities, credentials); " +
      'secrets are encrypted at rest and read back as "hidden" (send "hidden" to keep the stored one)',
  },
} as const;

const invalidDevice = errorResponse(
  PROBLEM_ERROR_BODY,
  'The template version does not exist, a placeholder is left unfilled or a driver setting does not fit ' +
    '(TPL_ERR_DEVICE_INVALID)',
  {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'JSON Pointer into the request' },
          message: { type: 'string' },
        },
      },
    },
  },
);

const writeErrors = {
  ...errorResponses(PROBLEM_ERROR_BODY, {
    400: 'Malformed request',
    401: 'No bearer token, and the service requires one for writes (TPL_ERR_UNAUTHORIZED)',
    403: 'The bearer token is not a write token (TPL_ERR_FORBIDDEN)',
    500: true,
  }),
};

/** Reads of devices need a token of scope read unless TRIAD_DEVICES_READ_ACCESS=open. */
const readErrors = errorResponses(PROBLEM_ERROR_BODY, {
  401: 'No bearer token (or an unknown one), and the service requires one for device reads (TPL_ERR_UNAUTHORIZED)',
});

export const createDeviceSchema = {
  tags: ['devices'],
  operationId: 'createDevice',
  security: [{ bearer: [] }],
  summary: 'Bind a template version to a device and start collecting',
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'templateId', 'templateVersion'],
    properties: fields,
  },
  response: {
    201: { ...deviceSchema, description: 'Created; collection has started' },
    422: invalidDevice,
    ...writeErrors,
  },
} as const;

export const listDevicesSchema = {
  tags: ['devices'],
  operationId: 'listDevices',
  security: [{ bearer: [] }],
  summary: 'List devices',
  response: {
    200: {
      description: 'Every device, oldest first',
      type: 'object',
      additionalProperties: false,
      required: ['devices'],
      properties: { devices: { type: 'array', items: deviceSchema } },
    },
    ...errorResponses(PROBLEM_ERROR_BODY, { 500: true }),
    ...readErrors,
  },
} as const;

const notFound = errorResponses(PROBLEM_ERROR_BODY, {
  400: 'Malformed id',
  404: 'No such device (TPL_ERR_DEVICE_NOT_FOUND)',
  500: true,
});

export const readDeviceSchema = {
  tags: ['devices'],
  operationId: 'readDevice',
  security: [{ bearer: [] }],
  summary: 'Read one device',
  params,
  response: { 200: { ...deviceSchema, description: 'The device' }, ...notFound, ...readErrors },
} as const;

export const patchDeviceSchema = {
  tags: ['devices'],
  operationId: 'updateDevice',
  security: [{ bearer: [] }],
  summary: 'Change a device (name, template version, variables, driver settings); collection restarts',
  params,
  body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields },
  response: {
    200: { ...deviceSchema, description: 'The changed device' },
    422: invalidDevice,
    ...notFound,
    ...writeErrors,
  },
} as const;

export const deleteDeviceSchema = {
  tags: ['devices'],
  operationId: 'deleteDevice',
  security: [{ bearer: [] }],
  summary: 'Stop collecting and delete a device with its alarms and events',
  params,
  response: { 204: { description: 'Deleted', type: 'null' }, ...notFound, ...writeErrors },
} as const;

export const deviceValuesSchema = {
  tags: ['devices'],
  operationId: 'readDeviceValues',
  security: [{ bearer: [] }],
  summary: 'Current values of a device',
  params,
  response: {
    200: {
      description: 'The latest value of every datapoint read since the service started',
      type: 'object',
      additionalProperties: false,
      required: ['values'],
      properties: { values: { type: 'array', items: deviceValueSchema } },
    },
    ...notFound,
    ...readErrors,
  },
} as const;

export const deviceAlarmsSchema = {
  tags: ['devices'],
  operationId: 'readDeviceAlarms',
  security: [{ bearer: [] }],
  summary: 'Active alarms of a device, newest first',
  params,
  response: {
    200: {
      description: 'The raised alarms',
      type: 'object',
      additionalProperties: false,
      required: ['alarms'],
      properties: { alarms: { type: 'array', items: deviceAlarmSchema } },
    },
    ...notFound,
    ...readErrors,
  },
} as const;

const alarmParams = {
  type: 'object',
  required: ['id', 'alarmId'],
  additionalProperties: false,
  properties: {
    ...params.properties,
    alarmId: { type: 'string', minLength: ALARM_ID_LENGTH, maxLength: ALARM_ID_LENGTH, pattern: '^[A-Za-z0-9_-]+$' },
  },
} as const;

const alarmNotFound = errorResponses(PROBLEM_ERROR_BODY, {
  400: 'Malformed id or alarm id',
  404: 'No such device (TPL_ERR_DEVICE_NOT_FOUND) or no such raised alarm (TPL_ERR_DEVICE_ALARM_NOT_FOUND)',
  500: true,
});

function acknowledgeSchema(undo: boolean) {
  return {
    tags: ['devices'],
    operationId: undo ? 'unacknowledgeDeviceAlarm' : 'acknowledgeDeviceAlarm',
    security: [{ bearer: [] }],
    summary: undo
      ? 'Take back the acknowledgement of a raised alarm'
      : 'Acknowledge a raised alarm: record who and when',
    description:
      'alarmId is the id GET /devices/{id}/alarms gives. Doing it twice changes nothing: the first who and ' +
      'when stay. The stream and /events get an alarm-' +
      (undo ? 'unacknowledged' : 'acknowledged') +
      ' event. A clear ends the alarm; a raise after it starts unacknowledged.',
    params: alarmParams,
    response: {
      200: { ...deviceAlarmSchema, description: 'The alarm as it is now' },
      ...alarmNotFound,
      ...writeErrors,
    },
  } as const;
}

export const acknowledgeDeviceAlarmSchema = acknowledgeSchema(false);
export const unacknowledgeDeviceAlarmSchema = acknowledgeSchema(true);

export const deviceEventsSchema = {
  tags: ['devices'],
  operationId: 'readDeviceEvents',
  security: [{ bearer: [] }],
  summary: 'Raise, clear, log and state events of a device, newest first',
  params,
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      since: {
        type: 'string',
        minLength: 1,
        maxLength: 40,
        description: 'only events after this time (ISO 8601 or epoch ms)',
      },
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
  },
  response: {
    200: {
      description: 'The events',
      type: 'object',
      additionalProperties: false,
      required: ['events'],
      properties: { events: { type: 'array', items: deviceEventSchema } },
    },
    ...notFound,
    ...readErrors,
  },
} as const;

/** A time as ISO 8601 or epoch ms. */
const historyTime = { type: 'string', minLength: 1, maxLength: 40 } as const;

export const readDeviceHistorySchema = {
  tags: ['devices'],
  operationId: 'readDeviceHistory',
  security: [{ bearer: [] }],
  summary: "A datapoint's stored values over a time range: raw points or min/max/avg per step",
  description:
    'Values are kept raw for TRIAD_DEVICE_HISTORY_RAW_MS (24 h) and as per-minute min/max/avg/count for ' +
    'TRIAD_DEVICE_HISTORY_MINUTE_MS (30 days). A range starting within the raw retention is answered from the ' +
    'raw values, an older one from the minute rows (a step rounded up to whole minutes). Without `step`, a raw ' +
    `range answers its points while there are at most ${MAX_HISTORY_POINTS}, else buckets of the shortest step ` +
    `fitting ${MAX_HISTORY_POINTS}; an older range answers such buckets. A step giving more than ` +
    `${MAX_HISTORY_POINTS} buckets is refused (TPL_ERR_HISTORY_QUERY_INVALID), as is a range over 400 days.`,
  params,
  querystring: {
    type: 'object',
    additionalProperties: false,
    required: ['set', 'datapoint'],
    properties: {
      set: { type: 'string', minLength: 1, maxLength: 200, description: 'the datapointSetId' },
      datapoint: { type: 'string', minLength: 1, maxLength: 200, description: 'the datapointId' },
      row: { type: 'string', minLength: 1, maxLength: 1000, description: "a table set's row key (as in /values)" },
      from: { ...historyTime, description: 'start of the range (ISO 8601 or epoch ms); default 24 h before `to`' },
      to: { ...historyTime, description: 'end of the range (ISO 8601 or epoch ms); default now' },
      step: {
        type: 'string',
        pattern: '^[1-9][0-9]{0,11}(ms|s|m|h|d)?$',
        description: 'bucket length: ms, or with a unit (`30s`, `5m`, `1h`, `1d`); at least 1 s; default chosen',
      },
    },
  },
  response: {
    200: { description: 'The values', ...deviceHistoryReplySchema },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'A malformed time or step, from after to, or too many buckets (TPL_ERR_HISTORY_QUERY_INVALID)',
      404:
        'No such device, or no such datapoint in its template ' +
        '(TPL_ERR_DEVICE_NOT_FOUND, TPL_ERR_DEVICE_DATAPOINT_NOT_FOUND)',
      500: true,
    }),
    ...readErrors,
  },
} as const;

export const deviceStreamSchema = {
  tags: ['devices'],
  operationId: 'streamDevice',
  security: [{ bearer: [] }],
  summary: 'Events and value changes as Server-Sent Events',
  description:
    'text/event-stream. The current values come first. Event names: `value` (data: one value as in /values), ' +
    '`alarm-raised`, `alarm-cleared`, `log`, `state` (data: the event as in /events). A comment line every 15 s ' +
    'keeps proxies from closing the stream.',
  params,
  produces: ['text/event-stream'],
  response: {
    200: { description: 'The stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    ...notFound,
    ...readErrors,
  },
} as const;

export const discoverDevicesSchema = {
  tags: ['devices'],
  operationId: 'discoverDevices',
  summary: 'Probe named addresses over SNMP or OPC UA and propose (or add) devices for the templates that match',
  description:
    'SNMP (default): reads sysDescr from each address (at most 1,024, 50 starts per second), matches it with ' +
    "the stored templates' rangerFilter.description, and with `add` creates a device with ICMP_IPAddress " +
    'filled for the newest matching template (once per address and template). OPC UA (`protocol: opcua`): ' +
    'opens a session at opc.tcp://<address>:<port>, reads BuildInfo (manufacturer, product, software version: ' +
    'the description matched) and browses the Objects folder; only templates with an OPC UA driver match, and ' +
    '`add` fills OPCUA_EndpointUrl.',
  security: [{ bearer: [] }],
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['targets'],
    properties: {
      targets: {
        type: 'string',
        minLength: 7,
        maxLength: 2000,
        description: 'comma-separated IPv4 addresses and CIDR blocks, e.g. 10.0.0.0/24',
      },
      snmp: {
        type: 'object',
        description:
          'SNMP settings as in a template: basicConfig {port, version, timeout, retries}, ' +
          'snmpCommunities, snmpV3Security',
      },
      protocol: { type: 'string', enum: ['snmp', 'opcua'], default: 'snmp', description: 'how to probe' },
      opcua: {
        type: 'object',
        description:
          'OPC UA settings as in a template (securityMode, securityPolicy, identity, serverCertificate, ' +
          'connectTimeout) and port (default 4840)',
      },
      add: { type: 'boolean', default: false, description: 'create the devices, not only propose them' },
    },
  },
  response: {
    200: {
      description: 'One entry per address, in address order',
      type: 'object',
      additionalProperties: false,
      required: ['results'],
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['address', 'templates'],
            properties: {
              address: { type: 'string' },
              sysDescr: { type: 'string' },
              endpointUrl: { type: 'string', description: 'OPC UA: the endpoint probed' },
              description: {
                type: 'string',
                description: 'OPC UA: manufacturer, product and software version from BuildInfo',
              },
              productName: { type: 'string' },
              manufacturerName: { type: 'string' },
              softwareVersion: { type: 'string' },
              objects: {
                type: 'array',
                items: { type: 'string' },
                description: 'OPC UA: browse names under the Objects folder (at most 50)',
              },
              error: {
                type: 'object',
                additionalProperties: false,
                required: ['code', 'message'],
                properties: { code: { type: 'string' }, message: { type: 'string' } },
              },
              templates: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['templateId', 'templateVersion'],
                  properties: { templateId: { type: 'string' }, templateVersion: { type: 'string' } },
                },
              },
              device: deviceSchema,
              existing: { type: 'boolean', description: 'the device already watched this address' },
            },
          },
        },
      },
    },
    ...writeErrors,
  },
} as const;
