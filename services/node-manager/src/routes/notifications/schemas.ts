/** Route schemas of `/api/notifications` (also the OpenAPI description). */
import { CHANNEL_TYPES, DELIVERY_STATUSES, SEVERITIES } from '../../model/notification-records.js';
import { BODY_ERRORS, errorResponses, idSchema } from '../shared-schemas.js';

const tags = ['notifications'];
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const noContent = { 204: { description: 'Done; no body', type: 'null' } } as const;
const nullableString = { type: ['string', 'null'] } as const;

const channelBody = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: CHANNEL_TYPES },
    name: text(100),
    url: { ...text(2048), description: 'webhook, slack (a secret: never shown again), pagerduty' },
    secret: { type: 'string', minLength: 16, maxLength: 256, description: 'webhook: the HMAC-SHA256 key (secret)' },
    routingKey: { ...text(128), description: 'pagerduty: the integration key (secret)' },
    host: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:_\\[\\]-]+$' },
    port: { type: 'integer', minimum: 1, maximum: 65_535 },
    starttls: { type: 'boolean', description: 'email: require STARTTLS (default true)' },
    user: text(256),
    password: { ...text(256), description: 'email: the SMTP AUTH password (secret)' },
    from: text(320),
    to: { type: 'array', minItems: 1, maxItems: 20, items: text(320) },
    ca: { ...text(20_000), description: 'email: PEM certificates to trust besides the system CAs' },
  },
} as const;

const channelReply = {
  type: 'object',
  required: ['id', 'name', 'type', 'secrets', 'createdAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', enum: CHANNEL_TYPES },
    url: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'integer' },
    starttls: { type: 'boolean' },
    user: nullableString,
    from: { type: 'string' },
    to: { type: 'array', items: { type: 'string' } },
    ca: { type: 'boolean', description: 'whether PEM certificates are set' },
    secrets: {
      type: 'array',
      items: { type: 'string' },
      description: 'the names of the sealed fields; their values are never returned',
    },
    createdAt: { type: 'integer' },
  },
} as const;

const subscriptionBody = {
  type: 'object',
  required: ['channelId'],
  additionalProperties: false,
  properties: {
    channelId: idSchema,
    username: { ...text(64), description: 'whose subscription (admin only for another user); default the caller' },
    minSeverity: { type: 'string', enum: SEVERITIES },
    tags: { type: 'array', maxItems: 50, uniqueItems: true, items: text(64) },
    alarmIds: { type: 'array', maxItems: 100, uniqueItems: true, items: text(255) },
    nodeFamilyId: idSchema,
  },
} as const;

const subscriptionReply = {
  type: 'object',
  required: ['id', 'username', 'channelId', 'minSeverity', 'tags', 'alarmIds', 'nodeFamilyId', 'createdAt'],
  properties: {
    id: { type: 'string' },
    username: { type: 'string' },
    channelId: { type: 'string' },
    minSeverity: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    alarmIds: { type: 'array', items: { type: 'string' } },
    nodeFamilyId: nullableString,
    createdAt: { type: 'integer' },
  },
} as const;

const attemptReply = {
  type: 'object',
  required: ['attempt', 'startedAt', 'durationMs', 'ok', 'statusCode', 'reply', 'error'],
  properties: {
    attempt: { type: 'integer' },
    startedAt: { type: 'integer' },
    durationMs: { type: 'integer' },
    ok: { type: 'boolean' },
    statusCode: { type: ['integer', 'null'], description: 'the HTTP status of a webhook, Slack or PagerDuty reply' },
    reply: { ...nullableString, description: "the SMTP server's reply, or the start of the HTTP reply body" },
    error: nullableString,
  },
} as const;

const deliveryReply = {
  type: 'object',
  required: ['id', 'channelId', 'status', 'attemptCount', 'nextAttemptAt', 'createdAt', 'alarm', 'attempts'],
  properties: {
    id: { type: 'string' },
    channelId: { type: 'string' },
    status: { type: 'string', enum: DELIVERY_STATUSES },
    attemptCount: { type: 'integer' },
    nextAttemptAt: { type: ['integer', 'null'] },
    createdAt: { type: 'integer' },
    alarm: {
      type: 'object',
      required: ['action', 'alarmId', 'nodeId', 'nodeName', 'severity', 'eventUs'],
      properties: {
        action: { type: 'string', enum: ['raised', 'acknowledged', 'cleared'] },
        alarmId: { type: 'string' },
        nodeId: { type: 'string' },
        nodeName: { type: 'string' },
        severity: { type: 'string' },
        eventUs: { type: 'integer' },
      },
    },
    attempts: { type: 'array', items: attemptReply },
  },
} as const;

export const createChannelSchema = {
  tags,
  operationId: 'createNotificationChannel',
  summary: 'Adds a channel (admin): webhook, slack, pagerduty or email; secrets are sealed and never returned',
  body: channelBody,
  response: { 200: { description: 'The channel as stored', ...channelReply }, ...errorResponses(...BODY_ERRORS) },
} as const;
export const listChannelsSchema = {
  tags,
  operationId: 'listNotificationChannels',
  summary: 'Every channel (admin), without its secrets',
  response: {
    200: {
      description: 'Every channel',
      type: 'object',
      required: ['channels'],
      properties: { channels: { type: 'array', items: channelReply } },
    },
    ...errorResponses(),
  },
} as const;
const channelParams = {
  type: 'object',
  required: ['channel_id'],
  properties: { channel_id: idSchema },
} as const;
export const deleteChannelSchema = {
  tags,
  operationId: 'deleteNotificationChannel',
  summary: 'Deletes a channel with its subscriptions and delivery records (admin)',
  params: channelParams,
  response: { ...noContent, ...errorResponses(404) },
} as const;

export const createSubscriptionSchema = {
  tags,
  operationId: 'createNotificationSubscription',
  summary: "Subscribes a user to alarm changes on a channel (one's own; admin: anyone's)",
  body: subscriptionBody,
  response: {
    200: { description: 'The subscription as stored', ...subscriptionReply },
    ...errorResponses(404, ...BODY_ERRORS),
  },
} as const;
export const listSubscriptionsSchema = {
  tags,
  operationId: 'listNotificationSubscriptions',
  summary: "The caller's subscriptions; an admin sees everyone's, or one user's with ?username=",
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: { username: text(64) },
  },
  response: {
    200: {
      description: 'The subscriptions',
      type: 'object',
      required: ['subscriptions'],
      properties: { subscriptions: { type: 'array', items: subscriptionReply } },
    },
    ...errorResponses(),
  },
} as const;
export const deleteSubscriptionSchema = {
  tags,
  operationId: 'deleteNotificationSubscription',
  summary: "Deletes one of the caller's subscriptions (admin: anyone's)",
  params: {
    type: 'object',
    required: ['subscription_id'],
    properties: { subscription_id: idSchema },
  },
  response: { ...noContent, ...errorResponses(404) },
} as const;

export const listDeliveriesSchema = {
  tags,
  operationId: 'listNotificationDeliveries',
  summary: 'The newest notifications with every delivery attempt (admin)',
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      channelId: idSchema,
      status: { type: 'string', enum: DELIVERY_STATUSES },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
      offset: {
        type: 'integer',
        minimum: 0,
        maximum: 1_000_000,
        default: 0,
        description: 'how many of the newest to skip: the next page starts at offset + limit',
      },
    },
  },
  response: {
    200: {
      description: 'Newest first',
      type: 'object',
      required: ['deliveries'],
      properties: { deliveries: { type: 'array', items: deliveryReply } },
    },
    ...errorResponses(),
  },
} as const;
