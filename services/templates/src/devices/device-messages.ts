/**
 * What the template-service instances on one database tell each other on the change bus (see
 * `DeviceCollection`). Every message names its sender (`from`), so an instance skips its own.
 */
import type { DeviceEventRecord } from '../repositories/device-repository.js';
import type { DeviceValue } from './device-supervisor.js';

/** Bus topics. */
export const DEVICE_TOPICS = {
  /** A device was created, changed or deleted through the API of some instance. */
  changes: 'templates.devices',
  /** Requests to the owner of a device: its current values (`ask`), or live values for a while (`watch`). */
  requests: 'templates.device-requests',
  /** Values from the owner: a reply to `ask` (with `req`), or live changes of a watched device. */
  values: 'templates.device-values',
  /** Every event an owner stored (alarm raised or cleared, log, state). */
  events: 'templates.device-events',
} as const;

export type DeviceChangeKind = 'created' | 'updated' | 'deleted';

export type DeviceMessage =
  | { readonly t: 'change'; readonly from: string; readonly kind: DeviceChangeKind; readonly id: string }
  | { readonly t: 'ask'; readonly from: string; readonly id: string; readonly req: string }
  | { readonly t: 'watch'; readonly from: string; readonly ids: readonly string[] }
  | {
      readonly t: 'values';
      readonly from: string;
      readonly id: string;
      /** The `ask` this answers; absent for live changes. */
      readonly req?: string;
      /** True on the last part of a reply. */
      readonly last?: boolean;
      readonly values: readonly DeviceValue[];
    }
  /** An event, or only its `seq` when it is too large for one message (read it from the database). */
  | { readonly t: 'event'; readonly from: string; readonly id: string; readonly event: DeviceEventRecord }
  | { readonly t: 'event'; readonly from: string; readonly id: string; readonly seq: number };

/**
 * Bytes a message may take: the bus allows 7,900; the rest is room for the envelope a part adds
 * to its values.
 */
export const MESSAGE_BYTES = 7_600;

/** Parses a bus payload; undefined for anything that is not one of ours. */
export function parseDeviceMessage(payload: string): DeviceMessage | undefined {
  try {
    const message = JSON.parse(payload) as unknown;
    if (typeof message !== 'object' || message === null) return undefined;
    const { t, from } = message as { t?: unknown; from?: unknown };
    if (typeof from !== 'string') return undefined;
    return ['change', 'ask', 'watch', 'values', 'event'].includes(String(t)) ? (message as DeviceMessage) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits `items` into runs whose JSON fits `MESSAGE_BYTES` (always at least one run, maybe empty).
 * An item that alone is larger goes into `oversize` instead.
 */
export function splitBySize<T>(items: readonly T[]): { parts: T[][]; oversize: T[] } {
  const parts: T[][] = [[]];
  const oversize: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (size > MESSAGE_BYTES) {
      oversize.push(item);
      continue;
    }
    if (bytes + size > MESSAGE_BYTES) {
      parts.push([]);
      bytes = 0;
    }
    parts[parts.length - 1]!.push(item);
    bytes += size;
  }
  return { parts, oversize };
}
