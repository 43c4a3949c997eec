/**
 * What the template-service instances on one database tell each other on the change bus (see
 * `DeviceCollection`). Every message names its sender (`from`), so an instance skips its own.
 */
import { isObject } from '@triad/common';
import { CHANGE_BUS_MAX_PAYLOAD_BYTES } from '@triad/db';
import type { DeviceChangeKind } from '../commands/device-commands.js';
import type { DeviceEventRecord } from '../model/device-record.js';
import { isDeviceValue, type DeviceValue } from '../presenters/device-presenter.js';

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
  /**
   * One piece of a value too large for one message (its JSON cut into `count` pieces, sent in
   * order before the reply's last `values` part): `key` names the value among the sender's.
   */
  | {
      readonly t: 'value-piece';
      readonly from: string;
      readonly id: string;
      readonly req?: string;
      readonly key: string;
      readonly index: number;
      readonly count: number;
      readonly text: string;
    }
  /** An event, or only its `seq` when it is too large for one message (read it from the database). */
  | { readonly t: 'event'; readonly from: string; readonly id: string; readonly event: DeviceEventRecord }
  | { readonly t: 'event'; readonly from: string; readonly id: string; readonly seq: number };

/** Parses a bus payload; undefined for anything that is not one of ours. */
export function parseDeviceMessage(payload: string): DeviceMessage | undefined {
  try {
    const message: unknown = JSON.parse(payload);
    if (!isObject(message)) return undefined;
    const { t, from } = message;
    if (typeof from !== 'string') return undefined;
    return ['change', 'ask', 'watch', 'values', 'value-piece', 'event'].includes(String(t))
      ? (message as DeviceMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

/** UTF-8 bytes of a message's payload. */
export function messageBytes(message: DeviceMessage): number {
  return Buffer.byteLength(JSON.stringify(message), 'utf8');
}

/**
 * Splits `items` into runs that each fit one bus message when put into `envelope` (the message
 * with an empty list): always at least one run, maybe empty. An item too large for a message of
 * its own goes into `oversize` instead.
 */
export function splitBySize<T>(items: readonly T[], envelope: DeviceMessage): { parts: T[][]; oversize: T[] } {
  const budget = CHANGE_BUS_MAX_PAYLOAD_BYTES - messageBytes(envelope);
  let part: T[] = [];
  const parts: T[][] = [part];
  const oversize: T[] = [];
  let bytes = 0;
  for (const item of items) {
    // The item and the comma before it.
    const size = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (size > budget) {
      oversize.push(item);
      continue;
    }
    if (bytes + size > budget) {
      part = [];
      parts.push(part);
      bytes = 0;
    }
    part.push(item);
    bytes += size;
  }
  return { parts, oversize };
}

/** The largest value (JSON, UTF-8 bytes) sent in pieces; a larger one stays on its collector. */
export const MAX_PIECED_VALUE_BYTES = 256 * 1024;

/** Values being put together at once, at most; the oldest is dropped beyond. */
const MAX_ASSEMBLING = 64;

/**
 * The pieces of `value` (one too large for a message of its own), each fitting one bus message:
 * its JSON cut every so many UTF-16 units that even escaped as JSON (at most 6 bytes a unit) a
 * piece fits. `envelope` gives `from`, `id` and `req`.
 */
export function valuePieces(
  value: DeviceValue,
  envelope: { readonly from: string; readonly id: string; readonly req?: string | undefined },
  key: string,
): DeviceMessage[] {
  const text = JSON.stringify(value);
  const empty: DeviceMessage = {
    t: 'value-piece',
    from: envelope.from,
    id: envelope.id,
    ...(envelope.req === undefined ? {} : { req: envelope.req }),
    key,
    index: 0,
    count: 0,
    text: '',
  };
  // Room left for the text, with the digits of index and count allowed for.
  const room = Math.floor((CHANGE_BUS_MAX_PAYLOAD_BYTES - messageBytes(empty) - 20) / 6);
  const count = Math.ceil(text.length / room);
  return Array.from({ length: count }, (_, index) => ({
    ...empty,
    index,
    count,
    text: text.slice(index * room, (index + 1) * room),
  }));
}

/** Puts pieced values together as their pieces arrive (in order, from one sender each). */
export class ValueAssembler {
  readonly #assembling = new Map<string, string[]>();

  /** Takes a piece; returns the value once its last piece is in. */
  add(piece: Extract<DeviceMessage, { t: 'value-piece' }>): DeviceValue | undefined {
    const key = `${piece.from}\u0000${piece.key}`;
    let texts = this.#assembling.get(key);
    if (piece.index === 0) {
      texts = [];
      this.#assembling.set(key, texts);
      for (const old of this.#assembling.keys()) {
        if (this.#assembling.size <= MAX_ASSEMBLING) break;
        this.#assembling.delete(old);
      }
    }
    // A piece out of order (one was lost): the value is dropped.
    if (texts === undefined || texts.length !== piece.index) {
      this.#assembling.delete(key);
      return undefined;
    }
    texts.push(piece.text);
    if (texts.length < piece.count) return undefined;
    this.#assembling.delete(key);
    try {
      const value: unknown = JSON.parse(texts.join(''));
      return isDeviceValue(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Values being put together now. */
  get pending(): number {
    return this.#assembling.size;
  }
}
