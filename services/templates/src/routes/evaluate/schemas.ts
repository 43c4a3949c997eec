import { errorResponse, errorResponses, PROBLEM_ERROR_BODY } from '@triad/service-kit';
import { problemEntrySchema } from '../../presenters/problem-presenter.js';

/** Most inputs one request may carry. */
export const MAX_UPDATES = 10_000;

const any = (description: string) => ({ description }) as const;
const tableIndex = {
  anyOf: [{ type: 'number' }, { type: 'string', maxLength: 240 }],
  description: 'table row: the driver tableIndex, or the row index values',
} as const;
const identifier = (maxLength: number, description: string) =>
  ({ type: 'string', minLength: 1, maxLength, description }) as const;

const cellSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['datapointId'],
  properties: {
    datapointId: identifier(80, 'datapointId of the column'),
    rawValue: any('raw value as read'),
    value: any('value as sent by the driver, if it converts itself'),
    quality: { type: 'string', maxLength: 40 },
    timestamp: { type: 'number', description: 'epoch milliseconds' },
  },
} as const;

const inputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['datapointSetId'],
  description:
    'One of: a datapoint update {datapointSetId, datapointId, rawValue?, value?, quality?, timestamp?, ' +
    'tableIndex?}; a row removal {datapointSetId, tableIndex, removed: true} (tableDynamic); a whole table ' +
    '{datapointSetId, rows: [[cell, ...], ...]}.',
  properties: {
    origin: identifier(80, 'device the reading is from; default the body origin, then the template origin'),
    datapointSetId: identifier(40, 'datapointSetId'),
    datapointId: identifier(80, 'datapointId'),
    rawValue: any('raw value as read (any JSON)'),
    value: any('value as sent by the driver (any JSON); when present the value map is skipped'),
    quality: { type: 'string', maxLength: 40, description: 'default good' },
    timestamp: { type: 'number', description: 'epoch milliseconds; default the time of the request' },
    tableIndex,
    removed: { type: 'boolean', enum: [true], description: 'removes the row tableIndex of a tableDynamic set' },
    rows: {
      type: 'array',
      maxItems: MAX_UPDATES,
      items: { type: 'array', maxItems: 1000, items: cellSchema },
      description: 'every row of a table set',
    },
  },
} as const;

const routingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['topic'],
  properties: {
    topic: { type: 'string' },
    service: { type: 'string' },
    serviceConfig: { type: 'object', additionalProperties: true },
  },
} as const;

/** A value after the pipeline (`DatapointResult`). */
export const resultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['origin', 'datapointSetId', 'datapointId', 'value', 'rawValue', 'quality', 'timestamp'],
  properties: {
    origin: { type: 'string' },
    datapointSetId: { type: 'string' },
    datapointId: { type: 'string' },
    tableIndex,
    value: any('value after default, value map, conversion and units'),
    rawValue: any('raw value (after default substitution)'),
    unit: { type: 'string', description: 'convert-units abbreviation, when unitsConfig shows it' },
    quality: { type: 'string' },
    timestamp: { type: 'number' },
    defaulted: { type: 'boolean', description: 'true when defaultValueConfig supplied the value or raw value' },
  },
} as const;

/** Every kind of pipeline event in one flat shape; which fields are present depends on `type`. */
export const eventSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'origin', 'timestamp'],
  description:
    'alarm-raised / alarm-cleared / log: the evaluation fields (severity, level, text, textHelp, facility, ' +
    'hidden, audited, broadcast, routing?, value?, reason?). evaluation-error: stage, code, message, ' +
    'expression?, severity?. update-rejected: code, message.',
  properties: {
    type: { type: 'string', enum: ['alarm-raised', 'alarm-cleared', 'log', 'evaluation-error', 'update-rejected'] },
    origin: { type: 'string' },
    datapointSetId: { type: 'string' },
    datapointId: { type: 'string' },
    tableIndex,
    timestamp: { type: 'number' },
    severity: { type: 'integer', description: '1..200 log, 201..1000 alarm' },
    level: {
      type: 'string',
      enum: ['notification', 'info', 'warning', 'error', 'critical'],
      description: 'band of the severity (INFERRED names)',
    },
    text: { type: 'string' },
    textHelp: { type: 'string' },
    facility: { type: 'integer' },
    hidden: { type: 'boolean' },
    audited: { type: 'boolean' },
    broadcast: { type: 'boolean' },
    routing: routingSchema,
    value: any('the datapoint value when the condition changed'),
    reason: { type: 'string', enum: ['row-removed'] },
    stage: { type: 'string', enum: ['conversion', 'units', 'calculation', 'alert', 'row-filter'] },
    code: { type: 'string', description: 'DT_ERR_EVAL_* or DT_ERR_PIPE_*' },
    message: { type: 'string' },
    expression: { type: 'string' },
  },
} as const;

export const evaluateSchema = {
  tags: ['templates'],
  operationId: 'evaluateTemplate',
  summary: 'Run datapoint updates through the value pipeline of a stored template',
  description:
    'Stateless: every request starts a fresh evaluator, so the first evaluation of each alert is a start-up ' +
    '(onStartup applies) and tables start empty. ' +
    'Inputs are processed in order; unusable inputs become update-rejected events and failing expressions ' +
    'evaluation-error events, never errors of the request. ' +
    'See docs/pipeline.md for the stage order.',
  params: {
    type: 'object',
    required: ['templateId', 'templateVersion'],
    additionalProperties: false,
    properties: {
      templateId: { type: 'string', pattern: '^[A-Za-z0-9_ -]{1,80}$', description: 'templateId (URL-encode spaces)' },
      templateVersion: { type: 'string', minLength: 1, maxLength: 128 },
    },
  },
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['updates'],
    properties: {
      updates: { type: 'array', maxItems: MAX_UPDATES, items: inputSchema },
      origin: identifier(80, "origin of updates that name none; default the template's origin"),
    },
  },
  response: {
    200: {
      description: 'The values and events of the updates, in order',
      type: 'object',
      additionalProperties: false,
      required: ['values', 'events'],
      properties: { values: { type: 'array', items: resultSchema }, events: { type: 'array', items: eventSchema } },
    },
    ...errorResponses(PROBLEM_ERROR_BODY, {
      400: 'Malformed body or parameters, or more than 10,000 updates',
      404: 'No such template version (TPL_ERR_TEMPLATE_NOT_FOUND)',
      413: 'Body larger than the source body limit',
      415: 'Not JSON',
      500: true,
    }),
    422: errorResponse(
      PROBLEM_ERROR_BODY,
      'The stored template cannot be evaluated (TPL_ERR_TEMPLATE_INVALID), with every issue',
      { errors: { type: 'array', items: problemEntrySchema } },
    ),
  },
} as const;
