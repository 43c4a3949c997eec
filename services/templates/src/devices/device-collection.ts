/**
 * Shares the collection of the stored devices among the template-service instances on one
 * PostgreSQL database: each device is collected by the one instance holding its work lease
 * (`@triad/db` work leases: rendezvous hashing, heartbeats, takeover after a crash), and the
 * instances tell each other what happens on the change bus (`device-messages.ts`):
 *
 * - a device created, changed or deleted through any instance starts, restarts or stops on its
 *   owner at once;
 * - `values(id)` on an instance that does not collect the device asks its owner, which answers
 *   from memory (values are never stored);
 * - the owner publishes every event it stores, and the value changes of devices that some other
 *   instance streams to a client (those instances say so every few seconds), so a stream works
 *   on every instance.
 *
 * A device taken over starts as after a restart: stored alarms that still hold are not raised
 * again, those that no longer hold are cleared (`DeviceSupervisor`). On SQLite the one instance
 * owns every device and nothing goes through the bus.
 */
import { randomBytes } from 'node:crypto';
import { ConcurrencyLimit } from '@triad/common';
import {
  CHANGE_BUS_MAX_PAYLOAD_BYTES,
  openChangeBus,
  startWorkLeases,
  type ChangeBus,
  type Database,
  type WorkLeaseChange,
  type WorkLeases,
} from '@triad/db';
import { TEMPLATES_LEASE_PREFIX } from '../migrations/0004-create-work-leases.js';
import type { DeviceRecord, DeviceRepository } from '../repositories/device-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import {
  DEVICE_TOPICS,
  messageBytes,
  parseDeviceMessage,
  splitBySize,
  type DeviceChangeKind,
  type DeviceMessage,
} from './device-messages.js';
import {
  DeviceSupervisor,
  type DeviceStreamItem,
  type DeviceSupervisorOptions,
  type DeviceValue,
} from './device-supervisor.js';

/** How long a non-owner waits for the owner's values before answering with none, ms. */
const ASK_TIMEOUT_MS = 2_000;
/** How often an instance says which devices it streams, ms; the owner forgets a watch after 3 of these. */
const WATCH_REPEAT_MS = 5_000;
const WATCH_TTL_MS = 3 * WATCH_REPEAT_MS;
/** Value changes of a watched device are sent at most this often, the latest of each datapoint, ms. */
const LIVE_FLUSH_MS = 100;
/** Devices started at once (each start reads the device, its template and its alarms). */
const STARTS_AT_ONCE = 4;

export interface DeviceCollectionOptions {
  readonly database: Database<TemplatesDatabase>;
  readonly devices: DeviceRepository;
  /** The supervisor to run the owned devices with (its `onItem` is the collection's). */
  readonly supervisor: Omit<DeviceSupervisorOptions, 'onItem'>;
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  readonly leaseHeartbeatMs: number;
  readonly log: DeviceSupervisorOptions['log'];
}

interface Ask {
  from: string | undefined;
  readonly values: DeviceValue[];
  finish(): void;
}

export class DeviceCollection {
  readonly instanceId: string;
  readonly supervisor: DeviceSupervisor;
  readonly #options: DeviceCollectionOptions;
  /** Other instances exist only on PostgreSQL. */
  readonly #shared: boolean;
  #bus: ChangeBus | undefined;
  #leases: WorkLeases | undefined;
  readonly #unsubscribes: (() => Promise<void>)[] = [];
  /** Starts and stops of one device, in order. */
  readonly #chains = new Map<string, Promise<void>>();
  /** What each running device was started with, to find changes missed while the bus was away. */
  readonly #bindings = new Map<string, string>();
  readonly #asks = new Map<string, Ask>();
  readonly #starting = new ConcurrencyLimit(STARTS_AT_ONCE);
  /** Devices other instances stream, until when (epoch ms). */
  readonly #watched = new Map<string, number>();
  /** Value changes of watched devices waiting to be sent, by device and datapoint. */
  readonly #live = new Map<string, Map<string, DeviceValue>>();
  #flushTimer: NodeJS.Timeout | undefined;
  #watchTimer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: DeviceCollectionOptions) {
    this.#options = options;
    this.instanceId = options.instanceId;
    this.#shared = options.database.dialect === 'postgres';
    this.supervisor = new DeviceSupervisor({ ...options.supervisor, onItem: (id, item) => this.#collected(id, item) });
  }

  /** Devices this instance holds the lease of. */
  get devicesOwned(): number {
    return this.#leases?.owned.size ?? 0;
  }

  /** Listens on the bus, takes this instance's share of the devices and starts them. */
  async start(): Promise<void> {
    const { database, log } = this.#options;
    const bus = openChangeBus(database, { log });
    this.#bus = bus;
    for (const topic of Object.values(DEVICE_TOPICS))
      this.#unsubscribes.push(
        await bus.subscribe(
          topic,
          (payload) => this.#receive(payload),
          () => this.#resync(topic),
        ),
      );
    this.#leases = await startWorkLeases({
      database,
      tablePrefix: TEMPLATES_LEASE_PREFIX,
      instanceId: this.instanceId,
      listItems: () => this.#options.devices.ids(),
      ttlMs: this.#options.leaseTtlMs,
      heartbeatMs: this.#options.leaseHeartbeatMs,
      onChange: (change) => this.#apply(change),
      log,
    });
    if (this.#shared) {
      this.#watchTimer = setInterval(() => void this.#announceWatches(), WATCH_REPEAT_MS);
      this.#watchTimer.unref();
    }
  }

  /** Stops every device here, then gives up the leases (the others take over at their next beat). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#watchTimer);
    clearTimeout(this.#flushTimer);
    await this.supervisor.stop();
    await this.#leases?.stop();
    for (const unsubscribe of this.#unsubscribes.splice(0)) await unsubscribe();
    await this.#bus?.close();
    for (const ask of [...this.#asks.values()]) ask.finish();
  }

  /**
   * After a device was stored or deleted through this instance: tells every instance, and does
   * this instance's part (start a new device it should own, restart a changed one it owns).
   */
  async changed(kind: DeviceChangeKind, id: string): Promise<void> {
    await this.#publish(DEVICE_TOPICS.changes, { t: 'change', from: this.instanceId, kind, id });
    await this.#onChange(kind, id);
  }

  /** Stops collecting `id` here now (before it is deleted), if this instance collects it. */
  async halt(id: string): Promise<void> {
    await this.#serial(id, () => this.#halt(id));
  }

  /** The current values of a device: from memory when collected here, else from its owner. */
  async values(id: string): Promise<DeviceValue[]> {
    const local = this.supervisor.values(id);
    if (local !== undefined || !this.#shared || this.#leases?.owns(id) !== false) return local ?? [];
    return this.#ask(id);
  }

  /** Listens to a device's value changes and events, wherever it is collected. */
  subscribe(id: string, listener: (item: DeviceStreamItem) => void): () => void {
    const first = !this.supervisor.hasListeners(id);
    const unsubscribe = this.supervisor.subscribe(id, listener);
    if (first && this.#shared)
      void this.#publish(DEVICE_TOPICS.requests, { t: 'watch', from: this.instanceId, ids: [id] });
    return unsubscribe;
  }

  async #onChange(kind: DeviceChangeKind, id: string): Promise<void> {
    if (kind === 'updated') {
      if (this.#leases?.owns(id) === true) await this.#serial(id, () => this.#start(id));
      return;
    }
    if (kind === 'deleted') await this.halt(id);
    await this.#leases?.refresh();
    // A device this instance just gained is being started: let the caller wait for it.
    await this.#chains.get(id);
  }

  /**
   * Starts and stops what the lease cycle handed over, without holding the cycle up: a cycle
   * waits for this, and a heartbeat late by thousands of starts would make the others take over.
   */
  #apply(change: WorkLeaseChange): void {
    // The ids, so an operator (and the tests) can follow every device from instance to instance.
    this.#options.log.info(
      { instance: this.instanceId, gained: change.gained, lost: change.lost },
      'devices collected here changed',
    );
    for (const id of change.lost) void this.#serial(id, () => this.#halt(id));
    for (const id of change.gained) void this.#serial(id, () => this.#start(id));
  }

  /** (Re)starts `id` as stored; a few at a time, so a large takeover leaves the pool to the lease cycle. */
  #start(id: string): Promise<void> {
    return this.#starting.run(async () => {
      const device = await this.#options.devices.find(id);
      if (device === undefined) return this.#halt(id);
      this.#bindings.set(id, binding(device));
      await this.supervisor.run(device);
    });
  }

  async #halt(id: string): Promise<void> {
    this.#bindings.delete(id);
    await this.supervisor.halt(id);
  }

  #serial(id: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#chains.get(id) ?? Promise.resolve()).then(work).catch((error: unknown) => {
      this.#options.log.warn({ device: id, err: error }, 'device start or stop failed');
    });
    this.#chains.set(id, next);
    void next.then(() => {
      if (this.#chains.get(id) === next) this.#chains.delete(id);
    });
    return next;
  }

  #receive(payload: string): void {
    const message = parseDeviceMessage(payload);
    if (message === undefined || message.from === this.instanceId || this.#stopped) return;
    switch (message.t) {
      case 'change':
        void this.#onChange(message.kind, message.id);
        return;
      case 'ask':
        if (this.#leases?.owns(message.id) === true)
          void this.#sendValues(message.id, this.supervisor.values(message.id) ?? [], message.req);
        return;
      case 'watch':
        for (const id of message.ids) this.#watched.set(id, Date.now() + WATCH_TTL_MS);
        return;
      case 'values':
        this.#receiveValues(message);
        return;
      case 'event':
        if (!this.supervisor.hasListeners(message.id)) return;
        if ('event' in message) this.supervisor.deliver(message.id, { kind: 'event', event: message.event });
        else void this.#deliverStoredEvent(message.id, message.seq);
        return;
    }
  }

  #receiveValues(message: Extract<DeviceMessage, { t: 'values' }>): void {
    if (message.req === undefined) {
      this.supervisor.deliver(message.id, { kind: 'values', values: message.values });
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

  async #deliverStoredEvent(id: string, seq: number): Promise<void> {
    const event = await this.#options.devices.event(seq).catch(() => undefined);
    if (event !== undefined) this.supervisor.deliver(id, { kind: 'event', event });
  }

  #ask(id: string): Promise<DeviceValue[]> {
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
      void this.#publish(DEVICE_TOPICS.requests, { t: 'ask', from: this.instanceId, id, req });
    });
  }

  /** Sends `values` in parts that fit the bus: a reply to `req`, or live changes without it. */
  async #sendValues(id: string, values: readonly DeviceValue[], req?: string): Promise<void> {
    const envelope: DeviceMessage = {
      t: 'values',
      from: this.instanceId,
      id,
      ...(req === undefined ? {} : { req, last: false }),
      values: [],
    };
    const { parts, oversize } = splitBySize(values, envelope);
    if (oversize.length > 0)
      this.#options.log.warn(
        { device: id, datapoints: oversize.map((v) => v.datapointId) },
        'values too large for the change bus are not shown by the other instances',
      );
    for (const [index, part] of parts.entries()) {
      if (req === undefined && part.length === 0) continue;
      const last = index === parts.length - 1;
      await this.#publish(DEVICE_TOPICS.values, { ...envelope, ...(req === undefined ? {} : { last }), values: part });
    }
  }

  /** What a device collected here produced: events go to every instance, values where they are watched. */
  #collected(id: string, item: DeviceStreamItem): void {
    if (!this.#shared || this.#stopped) return;
    if (item.kind === 'event') {
      const message: DeviceMessage = { t: 'event', from: this.instanceId, id, event: item.event };
      const fits = messageBytes(message) <= CHANGE_BUS_MAX_PAYLOAD_BYTES;
      void this.#publish(
        DEVICE_TOPICS.events,
        fits ? message : { t: 'event', from: this.instanceId, id, seq: item.event.seq },
      );
    } else if (item.kind === 'values' && this.#isWatched(id)) {
      let pending = this.#live.get(id);
      if (pending === undefined) this.#live.set(id, (pending = new Map<string, DeviceValue>()));
      for (const value of item.values)
        pending.set(`${value.datapointSetId}\u0000${value.datapointId}\u0000${value.row ?? ''}`, value);
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

  async #announceWatches(): Promise<void> {
    const ids = this.supervisor.listened();
    if (ids.length === 0) return;
    const envelope: DeviceMessage = { t: 'watch', from: this.instanceId, ids: [] };
    for (const part of splitBySize(ids, envelope).parts)
      await this.#publish(DEVICE_TOPICS.requests, { ...envelope, ids: part });
  }

  /** The bus lost messages: catch up on device changes, say again what is watched here. */
  #resync(topic: string): void {
    if (topic === DEVICE_TOPICS.requests) void this.#announceWatches();
    if (topic !== DEVICE_TOPICS.changes) return;
    void (async () => {
      await this.#leases?.refresh();
      for (const id of this.#leases?.owned ?? [])
        void this.#serial(id, async () => {
          const device = await this.#options.devices.find(id);
          if (device === undefined) await this.#halt(id);
          else if (binding(device) !== this.#bindings.get(id)) await this.#start(id);
        });
    })().catch((error: unknown) => this.#options.log.warn({ err: error }, 'device resync failed'));
  }

  async #publish(topic: string, message: DeviceMessage): Promise<void> {
    try {
      await this.#bus?.publish(topic, JSON.stringify(message));
    } catch (error) {
      this.#options.log.warn({ err: error, topic }, 'change bus message not sent');
    }
  }
}

/** What collecting a device depends on (not its state, name or times). */
function binding(device: DeviceRecord): string {
  return JSON.stringify([device.templateId, device.templateVersion, device.variables, device.drivers]);
}
