/**
 * What the template-service instances tell each other about the devices they collect, so that
 * every instance answers for every device (see `DeviceCollection`): the owner answers `ask`s for
 * current values, publishes every event it stores, and sends the value changes of devices that
 * other instances stream (`watch`); the others hand what they receive to their stream listeners.
 */
import { randomBytes } from 'node:crypto';
import { innerMap } from '@triad/common';
import { CHANGE_BUS_MAX_PAYLOAD_BYTES } from '@triad/db';
import type { DeviceEventRecord } from '../model/device-record.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import {
  DEVICE_TOPICS,
  MAX_PIECED_VALUE_BYTES,
  messageBytes,
  splitBySize,
  ValueAssembler,
  valuePieces,
  type DeviceMessage,
} from './device-messages.js';
import { placeKey } from '../model/device-place.js';
import type { DeviceValue } from '../presenters/device-presenter.js';
import type { DeviceListeners, DeviceStreamItem } from './device-listeners.js';

/** How long a non-owner waits for the owner's values before answering with none, ms. */
const ASK_TIMEOUT_MS = 2_000;
/** How often an instance says which devices it streams, ms; the watch is forgotten after 3 of these. */
const WATCH_REPEAT_MS = 5_000;
const WATCH_TTL_MS = 3 * WATCH_REPEAT_MS;
/** Value changes of a watched device are sent at most this often, the latest of each datapoint, ms. */
const LIVE_FLUSH_MS = 100;
/** Asks for a streamed device's values after the bus was away, each waiting `ASK_TIMEOUT_MS` at most. */
const REFRESH_ASKS = 5;
/** Newest stored events of a streamed device read again after the bus was away. */
const CATCH_UP_EVENTS = 100;

export interface DeviceRelayOptions {
  readonly instanceId: string;
  /** Current values of a device collected here; undefined when it is not. */
  readonly values: (id: string) => readonly DeviceValue[] | undefined;
  /** The stream listeners here. */
  readonly listeners: Pick<DeviceListeners, 'deliver' | 'listened' | 'hasListeners'>;
  readonly devices: DeviceRepository;
  /** Whether this instance holds the lease of a device. */
  readonly owns: (id: string) => boolean;
  /** Sends a message to every instance (errors are the caller's to log). */
  readonly publish: (topic: string, message: DeviceMessage) => Promise<void>;
  readonly log: { warn(object: object, message: string): void };
}

interface Ask {
  from: string | undefined;
  readonly values: DeviceValue[];
  finish(): void;
}

export class DeviceRelay {
  readonly #options: DeviceRelayOptions;
  readonly #asks = new Map<string, Ask>();
  readonly #assembler = new ValueAssembler();
  /** Devices other instances stream, until when (epoch ms). */
  readonly #watched = new Map<string, number>();
  /** Value changes of watched devices waiting to be sent, by device and datapoint. */
  readonly #live = new Map<string, Map<string, DeviceValue>>();
  /**
   * Devices streamed here that another instance collects: the `seq` of the last event their
   * listeners got (at first, the stream's start in µs), so no event is given twice.
   */
  readonly #seen = new Map<string, number>();
  #flushTimer: NodeJS.Timeout | undefined;
  #watchTimer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: DeviceRelayOptions) {
    this.#options = options;
  }

  /** Starts saying which devices are streamed here. */
  start(): void {
    this.#watchTimer = setInterval(() => void this.announceWatches(), WATCH_REPEAT_MS);
    this.#watchTimer.unref();
  }

  /** Stops sending; pending asks answer with what they have. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#watchTimer);
    clearTimeout(this.#flushTimer);
    for (const ask of [...this.#asks.values()]) ask.finish();
  }

  /** A stream of `id` starts here: ask for its value changes at once. */
  watch(id: string): void {
    if (!this.#seen.has(id)) this.#seen.set(id, Date.now() * 1000);
    void this.#options.publish(DEVICE_TOPICS.requests, { t: 'watch', from: this.#options.instanceId, ids: [id] });
  }

  /** Handles a message of another instance (`change` messages are not the relay's). */
  receive(message: DeviceMessage): void {
    if (this.#stopped) return;
    switch (message.t) {
      case 'ask':
        if (this.#options.owns(message.id))
          void this.#sendValues(message.id, this.#options.values(message.id) ?? [], message.req);
        return;
      case 'watch':
        for (const id of message.ids) this.#watched.set(id, Date.now() + WATCH_TTL_MS);
        return;
      case 'values':
        this.#receiveValues(message);
        return;
      case 'value-piece': {
        const value = this.#assembler.add(message);
        if (value === undefined) return;
        const { req } = message;
        this.#receiveValues({
          t: 'values',
          from: message.from,
          id: message.id,
          ...(req ? { req } : {}),
          values: [value],
        });
        return;
      }
      case 'event':
        if (!this.#options.listeners.hasListeners(message.id)) return;
        if ('event' in message) this.#deliverEvent(message.event);
        else void this.#deliverStoredEvent(message.seq);
        return;
      case 'change':
        return;
    }
  }

  #receiveValues(message: Extract<DeviceMessage, { t: 'values' }>): void {
    if (message.req === undefined) {
      this.#options.listeners.deliver(message.id, { kind: 'values', values: message.values });
      return;
    }
    const ask = this.#asks.get(message.req);
    if (ask === undefined) return;
    // Two instances may both answer during a handover: keep to the first.
    ask.from ??= message.from;
    if (ask.from !== message.from) return;
    ask.values.push(...message.values);
    if (message.last === true) ask.finish();
  }

  async #deliverStoredEvent(seq: number): Promise<void> {
    const event = await this.#options.devices.event(seq).catch(() => undefined);
    if (event !== undefined) this.#deliverEvent(event);
  }

  #deliverEvent(event: DeviceEventRecord): void {
    if (event.seq <= (this.#seen.get(event.deviceId) ?? 0)) return;
    this.#seen.set(event.deviceId, event.seq);
    this.#options.listeners.deliver(event.deviceId, { kind: 'event', event });
  }

  /**
   * The bus was away, and the events sent meanwhile with it: gives the listeners of each device
   * streamed here (and collected elsewhere) the stored events they have not had.
   */
  async catchUp(): Promise<void> {
    for (const id of this.#streamedFromElsewhere()) {
      const events = await this.#options.devices.events(id, undefined, CATCH_UP_EVENTS);
      for (const event of events.reverse()) this.#deliverEvent(event);
    }
  }

  /**
   * The bus was away, and the value changes sent meanwhile with it: asks the owners of the
   * devices streamed here (and collected elsewhere) for their current values and gives them to
   * the listeners, so a value that changed while away and has not changed since is shown.
   */
  async refreshValues(): Promise<void> {
    await Promise.all(
      this.#streamedFromElsewhere().map(async (id) => {
        // The owner may be reconnecting too (a restarted server cuts every instance): ask again.
        for (let attempt = 1; attempt <= REFRESH_ASKS && !this.#stopped; attempt += 1) {
          const values = await this.ask(id);
          if (values.length === 0) continue;
          if (!this.#stopped) this.#options.listeners.deliver(id, { kind: 'values', values });
          return;
        }
      }),
    );
  }

  /** Devices streamed here that another instance collects. */
  #streamedFromElsewhere(): string[] {
    return this.#options.listeners.listened().filter((id) => !this.#options.owns(id) && this.#seen.has(id));
  }

  /** Asks the owner of `id` for its current values; none when no owner answers in time. */
  ask(id: string): Promise<DeviceValue[]> {
    const req = randomBytes(8).toString('hex');
    return new Promise((resolve) => {
      const ask: Ask = {
        from: undefined,
        values: [],
        finish: () => {
          clearTimeout(timer);
          this.#asks.delete(req);
          resolve(ask.values);
        },
      };
      const timer = setTimeout(() => ask.finish(), ASK_TIMEOUT_MS);
      this.#asks.set(req, ask);
      void this.#options.publish(DEVICE_TOPICS.requests, { t: 'ask', from: this.#options.instanceId, id, req });
    });
  }

  /** Sends `values` in parts that fit the bus: a reply to `req`, or live changes without it. */
  async #sendValues(id: string, values: readonly DeviceValue[], req?: string): Promise<void> {
    const envelope: DeviceMessage = {
      t: 'values',
      from: this.#options.instanceId,
      id,
      ...(req === undefined ? {} : { req, last: false }),
      values: [],
    };
    const { parts, oversize } = splitBySize(values, envelope);
    const tooLarge = oversize.filter((v) => Buffer.byteLength(JSON.stringify(v), 'utf8') > MAX_PIECED_VALUE_BYTES);
    if (tooLarge.length > 0)
      this.#options.log.warn(
        { device: id, datapoints: tooLarge.map((v) => v.datapointId) },
        `values over ${MAX_PIECED_VALUE_BYTES} bytes of JSON are not shown by the other instances`,
      );
    // Larger values go in pieces, before the parts: a reply's last part then ends it.
    for (const value of oversize) {
      if (tooLarge.includes(value)) continue;
      const key = randomBytes(6).toString('hex');
      for (const piece of valuePieces(value, { from: this.#options.instanceId, id, req }, key))
        await this.#options.publish(DEVICE_TOPICS.values, piece);
    }
    for (const [index, part] of parts.entries()) {
      if (req === undefined && part.length === 0) continue;
      const last = index === parts.length - 1;
      await this.#options.publish(DEVICE_TOPICS.values, {
        ...envelope,
        ...(req === undefined ? {} : { last }),
        values: part,
      });
    }
  }

  /** What a device collected here produced: events go to every instance, values where they are watched. */
  collected(id: string, item: DeviceStreamItem): void {
    if (this.#stopped) return;
    if (item.kind === 'event') {
      const message: DeviceMessage = { t: 'event', from: this.#options.instanceId, id, event: item.event };
      const fits = messageBytes(message) <= CHANGE_BUS_MAX_PAYLOAD_BYTES;
      void this.#options.publish(
        DEVICE_TOPICS.events,
        fits ? message : { t: 'event', from: this.#options.instanceId, id, seq: item.event.seq },
      );
    } else if (item.kind === 'values' && this.#isWatched(id)) {
      const pending = innerMap(this.#live, id);
      for (const value of item.values) pending.set(placeKey(value.datapointSetId, value.datapointId, value.row), value);
      this.#flushTimer ??= setTimeout(() => this.#flush(), LIVE_FLUSH_MS);
    }
  }

  #flush(): void {
    this.#flushTimer = undefined;
    const live = [...this.#live];
    this.#live.clear();
    for (const [id, values] of live) void this.#sendValues(id, [...values.values()]);
  }

  #isWatched(id: string): boolean {
    const until = this.#watched.get(id);
    if (until === undefined) return false;
    if (until >= Date.now()) return true;
    this.#watched.delete(id);
    return false;
  }

  /** Says which devices have streams here (at start, every few seconds, after the bus was away). */
  async announceWatches(): Promise<void> {
    const ids = this.#options.listeners.listened();
    for (const id of this.#seen.keys()) if (!ids.includes(id)) this.#seen.delete(id);
    if (ids.length === 0) return;
    const envelope: DeviceMessage = { t: 'watch', from: this.#options.instanceId, ids: [] };
    for (const part of splitBySize(ids, envelope).parts)
      await this.#options.publish(DEVICE_TOPICS.requests, { ...envelope, ids: part });
  }
}
