/** Route schemas of `/api/alarm*` (also the OpenAPI description). */
import type { FromSchema } from 'json-schema-to-ts';
import { BODY_ERRORS, errorResponses, familyParams, nodeParams } from '../shared-schemas.js';

const tags = ['alarms'];

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: { type: 'string', minLength: 1, maxLength: 255, description: 'Only alarms whose src.custom is this' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 20 },
    tags: { type: 'string', maxLength: 2000, description: "Comma-separated tags overriding the user's tags" },
    eid: { type: 'string', maxLength: 64, description: 'Event id {Mega,Sec,Micro}: alarms older than it' },
  },
} as const;
const previousQuery = { ...listQuery, required: ['eid'] } as const;
/** The query of the alarm lists. */
export type ListQuery = FromSchema<typeof listQuery>;

/** alarmType, trend and threshold: null, or what the alarm was raised with (any JSON value). */
const anyValue = { description: 'null or a value' } as const;

const alarmSchema = {
  type: 'object',
  description: 'An alarm with every field of the spec, in its order',
  required: [
    'alarmId',
    'alarmType',
    'src',
    'eventTime',
    'eventId',
    'severity',
    'probableCause',
    'proposedRepairAction',
    'description',
    'additionalInformation',
    'correlatedEvents',
    'comments',
    'trend',
    'threshold',
    'state',
    'ackInfo',
    'rawSrc',
  ],
  properties: {
    alarmId: { type: 'string' },
    alarmType: anyValue,
    src: {
      type: 'object',
      required: ['nodeId', 'nodeName', 'custom', 'elarmServer'],
      properties: {
        nodeId: { type: 'string' },
        nodeName: { type: 'string' },
        custom: { type: 'string' },
        elarmServer: { type: 'string' },
      },
    },
    eventTime: { type: 'integer', description: 'ms since the epoch' },
    eventId: { type: 'string', description: '{Mega,Sec,Micro}' },
    severity: { type: 'string' },
    probableCause: { type: 'string' },
    proposedRepairAction: { type: 'string' },
    description: { type: 'string' },
    additionalInformation: { type: 'string' },
    correlatedEvents: { type: 'string' },
    comments: {
      type: 'array',
      items: {
        type: 'object',
        required: ['user', 'time', 'text'],
        properties: { user: { type: 'string' }, time: { type: 'integer' }, text: { type: 'string' } },
      },
    },
    trend: anyValue,
    threshold: anyValue,
    state: { type: 'string', enum: ['new', 'acknowledged'] },
    ackInfo: {
      type: 'object',
      nullable: true,
      required: ['user', 'time'],
      properties: { user: { type: 'string' }, time: { type: 'integer' } },
    },
    rawSrc: { type: 'string', description: 'Send back as alarmSrc to act on the alarm' },
  },
} as const;

const alarmList = {
  200: {
    description: 'Newest first',
    type: 'object',
    required: ['alarms'],
    properties: { alarms: { type: 'array', items: alarmSchema } },
  },
} as const;
const sourceList = {
  200: {
    description: 'node_level first, then the sources with active alarms',
    type: 'object',
    required: ['sources'],
    properties: { sources: { type: 'array', items: { type: 'string' } } },
  },
} as const;

export const listAlarmsSchema = {
  tags,
  operationId: 'listAlarms',
  summary: 'The most recent alarms',
  querystring: listQuery,
  response: { ...alarmList, ...errorResponses() },
} as const;
export const listPreviousAlarmsSchema = {
  tags,
  operationId: 'listPreviousAlarms',
  summary: 'Alarms older than eid',
  querystring: previousQuery,
  response: { ...alarmList, ...errorResponses() },
} as const;
export const listNodeAlarmsSchema = {
  tags,
  operationId: 'listNodeAlarms',
  summary: 'Alarms of a node',
  params: nodeParams,
  querystring: listQuery,
  response: { ...alarmList, ...errorResponses(404) },
} as const;
export const listPreviousNodeAlarmsSchema = {
  tags,
  operationId: 'listPreviousNodeAlarms',
  summary: 'Alarms of a node older than eid',
  params: nodeParams,
  querystring: previousQuery,
  response: { ...alarmList, ...errorResponses(404) },
} as const;
export const listFamilyAlarmsSchema = {
  tags,
  operationId: 'listFamilyAlarms',
  summary: 'Alarms of the nodes of a family',
  params: familyParams,
  querystring: listQuery,
  response: { ...alarmList, ...errorResponses(404) },
} as const;
export const listPreviousFamilyAlarmsSchema = {
  tags,
  operationId: 'listPreviousFamilyAlarms',
  summary: 'Alarms of a family older than eid',
  params: familyParams,
  querystring: previousQuery,
  response: { ...alarmList, ...errorResponses(404) },
} as const;
export const listSourcesSchema = {
  tags,
  operationId: 'listAlarmSources',
  summary: 'Usable source values',
  response: { ...sourceList, ...errorResponses() },
} as const;
export const listNodeSourcesSchema = {
  tags,
  operationId: 'listNodeAlarmSources',
  summary: 'Sources of a node',
  params: nodeParams,
  response: { ...sourceList, ...errorResponses(404) },
} as const;
export const listFamilySourcesSchema = {
  tags,
  operationId: 'listFamilyAlarmSources',
  summary: 'Sources of a family',
  params: familyParams,
  response: { ...sourceList, ...errorResponses(404) },
} as const;

const actionProperties = {
  userId: { type: 'string', maxLength: 64, description: 'Ignored with authentication on (the caller acts)' },
  alarmId: { type: 'string', minLength: 1, maxLength: 1000 },
  alarmSrc: { type: 'string', minLength: 1, maxLength: 2000, description: "The alarm's rawSrc" },
} as const;
const actionBody = {
  type: 'object',
  required: ['userId', 'alarmId', 'alarmSrc'],
  additionalProperties: false,
  properties: actionProperties,
} as const;
/** The body of the alarm actions. */
export type ActionBody = FromSchema<typeof actionBody>;
const emptyReply = { 200: { description: 'Done', type: 'object', additionalProperties: false } } as const;

const action = (operationId: string, summary: string) =>
  ({
    tags,
    operationId,
    summary,
    body: actionBody,
    response: { ...emptyReply, ...errorResponses(...BODY_ERRORS) },
  }) as const;

export const acknowledgeSchema = action('acknowledgeAlarm', 'new -> acknowledged');
export const unacknowledgeSchema = action('unacknowledgeAlarm', 'acknowledged -> new');
export const clearSchema = action('clearAlarm', 'Removes the alarm from the lists');
export const commentSchema = {
  ...action('commentAlarm', 'Adds a comment'),
  body: {
    type: 'object',
    required: ['userId', 'alarmId', 'alarmSrc', 'comment'],
    additionalProperties: false,
    properties: { ...actionProperties, comment: { type: 'string', minLength: 1, maxLength: 4096 } },
  },
} as const;
