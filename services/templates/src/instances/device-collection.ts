/**
 * Shares the collection of the stored devices among the template-service instances on one
 * PostgreSQL database: each device is collected by the one instance holding its work lease
 * (`@triad/db` work leases: rendezvous hashing, heartbeats, takeover after a crash), and the
 * instances tell each other what happens on the change bus (`device-messages.ts`; values and
 * events go through `DeviceRelay`):
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
import { ConcurrencyLimit } from '@triad/common';
import {
  openChangeBus,
  startWorkLeases,
  type ChangeBus,
  type Database,
  type WorkLeaseChange,
  type WorkLeases,
} from '@triad/db';
import { TEMPLATES_LEASE_PREFIX } from '../migrations/0004-create-work-leases.js';
import type { DeviceRecord } from '../model/device-record.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import type { DeviceChangeKind, DeviceChanges } from '../commands/device-commands.js';
import { DEVICE_TOPICS, parseDeviceMessage, type DeviceMessage } from './device-messages.js';
import { DeviceRelay } from './device-relay.js';
import { sealStoredVariables } from '../devices/seal-stored-variables.js';
import { DeviceSupervisor, type CollectedItem, type DeviceSupervisorOptions } from '../devices/device-supervisor.js';
import { presentDeviceValue, type DeviceValue } from '../presenters/device-presenter.js';
import { DeviceListeners, type DeviceStreamItem } from './device-listeners.js';
import type { DeviceEventRecord } from '../model/device-record.js';
import { HISTORY_SWEEP_ITEM } from '../devices/history-sweeper.js';
import { HistoryHeartbeat } from '../devices/history-heartbeat.js';
import type { HistoryWriter } from '../devices/history-writer.js';

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
  /** Receives the values of every device collected here (the device history), and its heartbeat. */
  readonly history?: Pick<HistoryWriter, 'record' | 'heartbeat'>;
  /** Work done by one instance only: started by the holder of the lease of `HISTORY_SWEEP_ITEM`. */
  readonly sweeper?: { start(): void; stop(): Promise<void> };
}

export class DeviceCollection implements DeviceChanges {
  readonly instanceId: string;
  readonly supervisor: DeviceSupervisor;
  /** The stream listeners here, of devices collected here or elsewhere. */
  readonly #listeners = new DeviceListeners();
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
  readonly #starting = new ConcurrencyLimit(STARTS_AT_ONCE);
  readonly #relay: DeviceRelay;
  /** Flat values into the history once a minute; only with a history. */
  readonly #heartbeat: HistoryHeartbeat | undefined;
  #stopped = false;

  constructor(options: DeviceCollectionOptions) {
    this.#options = options;
    this.instanceId = options.instanceId;
    this.#shared = options.database.dialect === 'postgres';
    this.supervisor = new DeviceSupervisor({
      ...options.supervisor,
      onItem: (id, item) => this.#collected(id, item),
    });
    this.#relay = new DeviceRelay({
      instanceId: this.instanceId,
      values: (id) => this.supervisor.values(id)?.map(presentDeviceValue),
      listeners: this.#listeners,
      devices: options.devices,
      owns: (id) => this.#leases?.owns(id) === true,
      publish: (topic, message) => this.#publish(topic, message),
      log: options.log,
    });
    const history = options.history;
    this.#heartbeat =
      history === undefined ? undefined : new HistoryHeartbeat({ devices: () => this.supervisor.running(), history });
  }

  /** Devices this instance holds the lease of. */
  get devicesOwned(): number {
    const owned = this.#leases?.owned;
    return owned === undefined ? 0 : owned.size - (owned.has(HISTORY_SWEEP_ITEM) ? 1 : 0);
  }

  /**
   * Seals secret variables an earlier version stored in clear, listens on the bus, takes this
   * instance's share of the devices and starts them.
   */
  async start(): Promise<void> {
    const { database, log, supervisor } = this.#options;
    const sealed = await sealStoredVariables(supervisor);
    if (sealed > 0) log.info({ devices: sealed }, 'secret device variables stored in clear were sealed');
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
      listItems: async () => {
        const ids = await this.#options.devices.ids();
        return this.#options.sweeper === undefined ? ids : [...ids, HISTORY_SWEEP_ITEM];
      },
      ttlMs: this.#options.leaseTtlMs,
      heartbeatMs: this.#options.leaseHeartbeatMs,
      onChange: (change) => this.#apply(change),
      log,
    });
    if (this.#shared) this.#relay.start();
    this.#heartbeat?.start();
  }

  /** Stops every device here, then gives up the leases (the others take over at their next beat). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#heartbeat?.stop();
    this.#relay.stop();
    await this.supervisor.stop();
    this.#listeners.end();
    await this.#leases?.stop();
    for (const unsubscribe of this.#unsubscribes.splice(0)) await unsubscribe();
    await this.#bus?.close();
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
    if (local !== undefined || !this.#shared || this.#leases?.owns(id) !== false)
      return (local ?? []).map(presentDeviceValue);
    return this.#relay.ask(id);
  }

  /** Listens to a device's value changes and events, wherever it is collected. */
  subscribe(id: string, listener: (item: DeviceStreamItem) => void): () => void {
    const first = !this.#listeners.hasListeners(id);
    const unsubscribe = this.#listeners.subscribe(id, listener);
    if (first && this.#shared) this.#relay.watch(id);
    return unsubscribe;
  }

  /** An event stored by a request (an acknowledgement): to the device's streams, on every instance. */
  announce(id: string, event: DeviceEventRecord): void {
    this.#collected(id, { kind: 'event', event });
  }

  /** What a device collected here produced: to the listeners here, and to the other instances. */
  #collected(id: string, collected: CollectedItem): void {
    if (collected.kind === 'values') this.#options.history?.record(id, collected.values);
    // Values are presented only for someone: most devices have no stream open, and on SQLite
    // there is no other instance.
    if (!this.#shared && !this.#listeners.hasListeners(id)) return;
    const item: DeviceStreamItem =
      collected.kind === 'values' ? { kind: 'values', values: collected.values.map(presentDeviceValue) } : collected;
    // Nobody else to tell on SQLite.
    if (this.#shared) this.#relay.collected(id, item);
    this.#listeners.deliver(id, item);
  }

  async #onChange(kind: DeviceChangeKind, id: string): Promise<void> {
    if (kind === 'updated') {
      if (this.#leases?.owns(id) === true) await this.#serial(id, () => this.#start(id));
      return;
    }
    // One lease row per create or delete, not a cycle over every device (O(n) per create, O(n²)
    // to store n devices); the periodic cycle still balances. Every instance hears of the change,
    // so the wanted owner claims the device at once.
    if (kind === 'deleted') {
      await this.halt(id);
      await this.#leases?.release(id);
      return;
    }
    await this.#leases?.claim(id);
    // A device this instance just gained is being started: let the caller wait for it.
    await this.#chains.get(id);
  }

  /**
   * Starts and stops what the lease cycle handed over, without holding the cycle up: a cycle
   * waits for this, and a heartbeat late by thousands of starts would make the others take over.
   */
  #apply(change: WorkLeaseChange): void {
    if (change.gained.includes(HISTORY_SWEEP_ITEM)) this.#options.sweeper?.start();
    if (change.lost.includes(HISTORY_SWEEP_ITEM)) void this.#options.sweeper?.stop();
    const gained = change.gained.filter((id) => id !== HISTORY_SWEEP_ITEM);
    const lost = change.lost.filter((id) => id !== HISTORY_SWEEP_ITEM);
    // The ids, so an operator (and the tests) can follow every device from instance to instance.
    this.#options.log.info({ instance: this.instanceId, gained, lost }, 'devices collected here changed');
    for (const id of lost) void this.#serial(id, () => this.#halt(id));
    for (const id of gained) void this.#serial(id, () => this.#start(id));
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
    if (message.t === 'change') void this.#onChange(message.kind, message.id);
    else this.#relay.receive(message);
  }

  /**
   * The bus lost messages: catch up on device changes, events and current values, say again what
   * is watched here.
   */
  #resync(topic: string): void {
    if (topic === DEVICE_TOPICS.requests) void this.#relay.announceWatches();
    if (topic === DEVICE_TOPICS.events)
      this.#relay.catchUp().catch((error: unknown) => this.#options.log.warn({ err: error }, 'event catch-up failed'));
    if (topic === DEVICE_TOPICS.values)
      this.#relay
        .refreshValues()
        .catch((error: unknown) => this.#options.log.warn({ err: error }, 'value refresh failed'));
    if (topic !== DEVICE_TOPICS.changes) return;
    void (async () => {
      await this.#leases?.refresh();
      for (const id of [...(this.#leases?.owned ?? [])].filter((item) => item !== HISTORY_SWEEP_ITEM))
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
