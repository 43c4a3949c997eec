import type { HistoryBucket, HistoryPoint } from '../model/device-history.js';

/** What `GET /devices/{id}/history` answers, before presenting. */
export interface HistoryAnswer {
  readonly deviceId: string;
  readonly set: string;
  readonly datapoint: string;
  readonly row: string | null;
  readonly from: number;
  readonly to: number;
  readonly resolution: 'raw' | 'minute';
  /** Bucket length, ms; 0 for raw points. */
  readonly step: number;
  readonly points: readonly HistoryPoint[];
  readonly buckets: readonly HistoryBucket[];
}

/** The JSON schema of `presentHistory`'s result (the route's 200 answer). */
export const deviceHistoryReplySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['deviceId', 'set', 'datapoint', 'row', 'from', 'to', 'resolution', 'step', 'points', 'buckets'],
  properties: {
    deviceId: { type: 'string' },
    set: { type: 'string' },
    datapoint: { type: 'string' },
    row: { type: ['string', 'null'], description: "the table row's key; null in a map set" },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    resolution: {
      type: 'string',
      enum: ['raw', 'minute'],
      description: 'raw: from the values kept as collected; minute: from the per-minute rows (older ranges)',
    },
    step: { type: 'integer', minimum: 0, description: 'bucket length in ms; 0: `points` holds the raw values' },
    points: {
      type: 'array',
      description: 'raw values oldest first (step 0); empty when answering buckets',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'value', 'text'],
        properties: {
          at: { type: 'integer', description: 'epoch ms' },
          value: { type: ['number', 'null'], description: 'numbers; booleans as 0 and 1; null for text or bad' },
          text: { type: ['string', 'null'], description: 'string values (cut to 1,000 characters)' },
        },
      },
    },
    buckets: {
      type: 'array',
      description: 'per step, oldest first, of the numbers only; a step without values has no bucket',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'min', 'max', 'avg', 'count'],
        properties: {
          at: { type: 'integer', description: "the bucket's start, epoch ms (a multiple of step)" },
          min: { type: 'number' },
          max: { type: 'number' },
          avg: { type: 'number' },
          count: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
} as const;

/** A history answer as clients see it: the range in ISO 8601, every point and bucket field listed. */
export function presentHistory(answer: HistoryAnswer) {
  return {
    deviceId: answer.deviceId,
    set: answer.set,
    datapoint: answer.datapoint,
    row: answer.row,
    from: new Date(answer.from).toISOString(),
    to: new Date(answer.to).toISOString(),
    resolution: answer.resolution,
    step: answer.step,
    points: answer.points.map((p) => ({ at: p.at, value: p.value, text: p.text })),
    buckets: answer.buckets.map((b) => ({ at: b.at, min: b.min, max: b.max, avg: b.avg, count: b.count })),
  };
}
