/**
 * Runs the collection of the devices it is told to run (`DeviceCollection` says which: the ones
 * this instance holds the lease of): one `DeviceCollector` each, sharing a read limiter. It keeps
 * each device's current values in memory, stores alarm changes and log events (the repository
 * drops a raise that is already stored, so a restart or a takeover repeats nothing), reconciles
 * alarms stored before the run started that no longer hold, and hands what it collected (value
 * changes, stored events) to `onItem`. Refused readings and unreadable messages (the collector's
 * problems) are stored as `problem` events, at most one per kind and datapoint a minute, each with
 * the count so far and how many were not stored since the last (docs/devices.md, "Device events").
 */
import {
  DeviceCollector,
  Limiter,
  type CollectorProblem,
  type DeviceNotification,
  planCollection,
  prepareDevice,
  type DeviceError,
  type DriverPlan,
  type DeviceState,
  type DriverRegistry,
} from '@triad/device-drivers';
import {
  compileTemplatePipeline,
  type AlertEvent,
  type DatapointResult,
  type DeviceTemplate,
  type PipelineEvent,
  type TemplatePipeline,
} from '@triad/device-templates';
import { innerMap } from '@triad/common';
import type { SecretCipher } from '@triad/service-kit';
import {
  deviceAlarmId,
  type DeviceAlarmRecord,
  type DeviceEventRecord,
  type DeviceRecord,
} from '../model/device-record.js';
import type { AlarmChange } from '../model/alarm-change.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import { placeKey, rowOf } from '../model/device-place.js';
import type { TemplateRepository } from '../repositories/template-repository.js';
import { openSecrets } from './device-secrets.js';
import { openVariables } from './secret-variables.js';
import { templateDocument } from '../model/template-document.js';

/** What a device collected here produced: value changes, or an event just stored. */
export type CollectedItem =
  | { readonly kind: 'event'; readonly event: DeviceEventRecord }
  | { readonly kind: 'values'; readonly values: readonly DatapointResult[] };

export interface DeviceSupervisorOptions {
  readonly devices: DeviceRepository;
  readonly templates: TemplateRepository;
  readonly registry: DriverRegistry;
  readonly cipher: SecretCipher;
  /** Reads running at once across all devices. */
  readonly maxConcurrentReads: number;
  /** False: devices are stored and served, but nothing is collected. */
  readonly collect: boolean;
  readonly log: { warn(object: object, message: string): void; info(object: object, message: string): void };
  readonly now?: () => number;
  /** Called with every value change and stored event of a device this supervisor collects. */
  readonly onItem?: (id: string, item: CollectedItem) => void;
}

interface Running {
  readonly collector: DeviceCollector;
  /** The device's name when it started (the `/metrics` label `name`). */
  readonly name: string;
  /** The latest value of each datapoint and row, in order of first arrival. */
  readonly values: Map<string, DatapointResult>;
  /** Alarms stored before this run started that the pipeline has not confirmed yet. */
  readonly unconfirmed: Map<string, DeviceAlarmRecord>;
  /** Writes of this device, in order. */
  queue: Promise<void>;
  /** Per problem kind and datapoint: when one was last stored, and how many were not stored since. */
  readonly problems: Map<string, { at: number; skipped: number }>;
  /** Trap events stored in the current minute, and how many were not stored since the last stored one. */
  readonly traps: { windowStart: number; stored: number; skipped: number };
}

/** At most one stored `problem` event per kind and datapoint in this time. */
const PROBLEM_EVENT_INTERVAL_MS = 60_000; // 1 min
/** At most this many `trap` events stored per device and minute (the receiver lets 50 a second through). */
const TRAP_EVENTS_PER_MINUTE = 60;

export class DeviceSupervisor {
  readonly #options: DeviceSupervisorOptions;
  readonly #limiter: Limiter;
  readonly #running = new Map<string, Running>();
  /** Per template source: its document, pipeline and plans, shared by every device of it. */
  readonly #templates = new Map<string, CompiledTemplate>();
  /** `placeKey`s of map-set datapoints, by set and datapoint id (`#placeOf`). */
  readonly #mapKeys = new Map<string, Map<string, string>>();
  #stopped = false;

  constructor(options: DeviceSupervisorOptions) {
    this.#options = options;
    this.#limiter = new Limiter(options.maxConcurrentReads);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const running = [...this.#running.values()];
    this.#running.clear();
    await Promise.all(running.map(async (run) => run.collector.stop()));
    await Promise.all(running.map((run) => run.queue));
  }

  /** (Re)starts the collection of `device`. A device whose template is gone stays stopped, with a warning. */
  async run(device: DeviceRecord): Promise<void> {
    await this.halt(device.id);
    if (this.#stopped || !this.#options.collect) return;
    const template = await this.#template(device.templateId, device.templateVersion);
    if (template === undefined) {
      this.#options.log.warn({ device: device.id }, 'device not collected: its template version is gone');
      return;
    }
    const drivers = openSecrets(device.drivers, this.#options.registry, this.#options.cipher);
    const variables = openVariables(device.variables, this.#options.cipher);
    const prepared = prepareDevice(template.document, { variables, drivers }, this.#options.registry, template.plans);
    if (prepared.problems.length > 0) {
      this.#options.log.warn({ device: device.id, problems: prepared.problems }, 'device not collected');
      return;
    }
    const unconfirmed = new Map(
      (await this.#options.devices.alarms(device.id)).map((alarm) => [alarmKey(alarm), alarm] as const),
    );
    // The sink is called once collection has started, after `run` below exists.
    const collector = new DeviceCollector({
      pipeline: template.pipeline,
      drivers: prepared.drivers,
      origin: prepared.origin,
      registry: this.#options.registry,
      limiter: this.#limiter,
      sink: {
        output: (values, events) => this.#output(device.id, run, values, events),
        state: (state, error) => this.#state(device.id, run, state, error),
        problem: (problem) => this.#problem(device.id, run, problem),
        notification: (notification, at) => this.#notification(device.id, run, notification, at),
      },
      log: (message) => this.#options.log.info({ device: device.id }, message),
    });
    const run: Running = {
      collector,
      name: device.name,
      values: new Map(),
      unconfirmed,
      queue: Promise.resolve(),
      problems: new Map(),
      traps: { windowStart: 0, stored: 0, skipped: 0 },
    };
    this.#running.set(device.id, run);
    collector.start();
  }

  /** Stops collecting `id` (its stored alarms stay). */
  async halt(id: string): Promise<void> {
    const run = this.#running.get(id);
    if (run === undefined) return;
    this.#running.delete(id);
    await run.collector.stop();
    await run.queue;
  }

  /** Current values of a running device, in order of first arrival; undefined when not running. */
  values(id: string): DatapointResult[] | undefined {
    const run = this.#running.get(id);
    return run === undefined ? undefined : [...run.values.values()];
  }

  /** Every running device: id, name, collector state and current values (in order of first arrival). */
  *running(): Generator<{ id: string; name: string; state: DeviceState; values: Iterable<DatapointResult> }> {
    for (const [id, run] of this.#running)
      yield { id, name: run.name, state: run.collector.state, values: run.values.values() };
  }

  /** Resolves once every write queued so far for `id` is stored (tests, shutdown). */
  async settled(id: string): Promise<void> {
    await this.#running.get(id)?.queue;
  }

  #output(id: string, run: Running, values: readonly DatapointResult[], events: readonly PipelineEvent[]): void {
    for (const result of values) run.values.set(this.#placeOf(result), result);
    if (values.length > 0) this.#emit(id, { kind: 'values', values });
    // Most outputs raise, clear and log nothing and have no stored alarm left to confirm.
    if (events.length === 0 && (run.unconfirmed.size === 0 || values.length === 0)) return;
    const changes: AlarmChange[] = [];
    const logs: { type: string; at: number; body: Record<string, unknown> }[] = [];
    for (const event of events) {
      if (event.type === 'alarm-raised' || event.type === 'alarm-cleared') {
        const alarm = alarmOf(event);
        run.unconfirmed.delete(alarmKey(alarm));
        changes.push({ type: event.type, at: event.timestamp, alarm, body: eventBody(event) });
      } else if (event.type === 'log') logs.push({ type: 'log', at: event.timestamp, body: eventBody(event) });
    }
    if (run.unconfirmed.size > 0 && values.length > 0) changes.push(...this.#reconcile(run, values));
    if (changes.length === 0 && logs.length === 0) return;
    this.#enqueue(id, run, async () => {
      const stored = await this.#options.devices.record(id, changes, logs);
      for (const event of stored) this.#emit(id, { kind: 'event', event });
    });
  }

  /**
   * The `placeKey` of a result. A map set's keys are made once per datapoint and kept (the same
   * for every device): building and hashing a new string for every value cost more than two
   * lookups of the template's own ids.
   */
  #placeOf(result: DatapointResult): string {
    if (result.tableIndex !== undefined)
      return placeKey(result.datapointSetId, result.datapointId, rowOf(result.tableIndex));
    const keys = innerMap(this.#mapKeys, result.datapointSetId);
    let key = keys.get(result.datapointId);
    if (key === undefined)
      keys.set(result.datapointId, (key = placeKey(result.datapointSetId, result.datapointId, null)));
    return key;
  }

  /**
   * Alarms stored before a restart: once the pipeline has evaluated their datapoint again (it is
   * among `values`) and does not hold the alarm raised, they are cleared (the condition went away
   * while Triad was down). The pipeline's snapshot is read only when such a datapoint was read.
   */
  #reconcile(run: Running, values: readonly DatapointResult[]): AlarmChange[] {
    const read = new Set(values.map((v) => placeKey(v.datapointSetId, v.datapointId, rowOf(v.tableIndex))));
    const due = [...run.unconfirmed].filter(([, a]) => read.has(placeKey(a.datapointSetId, a.datapointId, a.row)));
    if (due.length === 0) return [];
    const active = new Set<string>();
    for (const set of run.collector.evaluator.snapshot())
      for (const row of set.rows)
        for (const alarm of row.activeAlarms)
          active.add(
            `${placeKey(set.datapointSetId, alarm.datapointId, rowOf(row.tableIndex))}\u0000${alarm.severity}`,
          );
    const changes: AlarmChange[] = [];
    const at = (this.#options.now ?? Date.now)();
    for (const [key, alarm] of due) {
      run.unconfirmed.delete(key);
      if (!active.has(key))
        changes.push({
          type: 'alarm-cleared',
          at,
          alarm,
          body: { ...alarmBody(alarm), reason: 'not-raised-after-restart' },
        });
    }
    return changes;
  }

  #state(id: string, run: Running, state: DeviceState, error: DeviceError | null): void {
    const at = (this.#options.now ?? Date.now)();
    this.#enqueue(id, run, async () => {
      await this.#options.devices.setState(id, state, error, at);
      const [event] = await this.#options.devices.record(
        id,
        [],
        [{ type: 'state', at, body: { state, ...(error === null ? {} : { error }) } }],
      );
      if (event !== undefined) this.#emit(id, { kind: 'event', event });
    });
  }

  #problem(id: string, run: Running, problem: CollectorProblem): void {
    const key = `${problem.kind}\u0000${problem.datapointSetId ?? ''}\u0000${problem.datapointId ?? ''}`;
    const last = run.problems.get(key);
    if (last !== undefined && problem.at - last.at < PROBLEM_EVENT_INTERVAL_MS) {
      last.skipped++;
      return;
    }
    run.problems.set(key, { at: problem.at, skipped: 0 });
    const body = {
      kind: problem.kind,
      message: problem.message,
      ...(problem.datapointSetId === undefined ? {} : { datapointSetId: problem.datapointSetId }),
      ...(problem.datapointId === undefined ? {} : { datapointId: problem.datapointId }),
      count: problem.count,
      notStored: last?.skipped ?? 0,
    };
    this.#enqueue(id, run, async () => {
      const [event] = await this.#options.devices.record(id, [], [{ type: 'problem', at: problem.at, body }]);
      if (event !== undefined) this.#emit(id, { kind: 'event', event });
    });
  }

  /** Stores a trap or inform as a `trap` event, at most `TRAP_EVENTS_PER_MINUTE` a minute per device. */
  #notification(id: string, run: Running, notification: DeviceNotification, at: number): void {
    const traps = run.traps;
    if (at - traps.windowStart >= 60_000) {
      traps.windowStart = at;
      traps.stored = 0;
    }
    if (traps.stored >= TRAP_EVENTS_PER_MINUTE) {
      traps.skipped++;
      return;
    }
    traps.stored++;
    const body = { ...notification, notStored: traps.skipped };
    traps.skipped = 0;
    this.#enqueue(id, run, async () => {
      const [event] = await this.#options.devices.record(id, [], [{ type: 'trap', at, body }]);
      if (event !== undefined) this.#emit(id, { kind: 'event', event });
    });
  }

  #enqueue(id: string, run: Running, write: () => Promise<void>): void {
    run.queue = run.queue.then(write).catch((error: unknown) => {
      this.#options.log.warn({ device: id, err: error }, 'device write failed');
    });
  }

  #emit(id: string, item: CollectedItem): void {
    this.#options.onItem?.(id, item);
  }

  async #template(templateId: string, templateVersion: string): Promise<CompiledTemplate | undefined> {
    const record = await this.#options.templates.find(templateId, templateVersion);
    if (record === undefined) return undefined;
    let compiled = this.#templates.get(record.sourceSha256);
    if (compiled === undefined) {
      const document = templateDocument(record);
      compiled = { document, pipeline: compileTemplatePipeline(document), plans: planCollection(document) };
      this.#templates.set(record.sourceSha256, compiled);
    }
    return compiled;
  }
}

interface CompiledTemplate {
  readonly document: DeviceTemplate;
  readonly pipeline: TemplatePipeline;
  readonly plans: readonly DriverPlan[];
}

function alarmOf(event: AlertEvent): DeviceAlarmRecord {
  return {
    datapointSetId: event.datapointSetId,
    datapointId: event.datapointId,
    row: rowOf(event.tableIndex),
    severity: event.severity,
    text: event.text,
    textHelp: event.textHelp,
    raisedAt: event.timestamp,
    value: event.value ?? null,
    acknowledged: null,
  };
}

/** The fields every alarm event carries. */
function alarmBody(alarm: DeviceAlarmRecord): Record<string, unknown> {
  return {
    alarmId: deviceAlarmId(alarm),
    severity: alarm.severity,
    text: alarm.text,
    textHelp: alarm.textHelp,
    datapointSetId: alarm.datapointSetId,
    datapointId: alarm.datapointId,
    row: alarm.row,
  };
}

function eventBody(event: AlertEvent): Record<string, unknown> {
  return {
    ...alarmBody(alarmOf(event)),
    level: event.level,
    value: event.value ?? null,
    ...(event.reason !== undefined ? { reason: event.reason } : {}),
  };
}

function alarmKey(alarm: DeviceAlarmRecord): string {
  return `${placeKey(alarm.datapointSetId, alarm.datapointId, alarm.row)}\u0000${alarm.severity}`;
}
