/**
 * Collects one device: one driver per `originType` the template uses, each polling group on its
 * own timer, `singleQuery` datapoints once, subscriptions while running. Readings go through the
 * template's value pipeline; values, events and state changes go to the sink. A device that does
 * not answer is `down` (its datapoints read with quality `bad`, so "value is null" alarms fire)
 * and is retried with a growing, jittered delay; other devices never wait for it.
 */
import {
  createPipelineEvaluator,
  type DatapointResult,
  type PipelineEvent,
  type PipelineInput,
  type PipelineSink,
  type TemplateEvaluator,
  type TemplatePipeline,
} from '@triad/device-templates';
import { innerMap } from '@triad/common';
import { isEmptyRequest, type DriverPlan } from './collection-plan.js';
import type {
  DeviceNotification,
  Driver,
  PointRequest,
  ReadingProblem,
  ReadRequest,
  SubscriptionDriver,
} from './driver.js';
import { DriverError, toDriverError } from './driver-error.js';
import type { DriverRegistry } from './driver-registry.js';
import type { Limiter } from './limiter.js';
import { pointReading } from './point-reading.js';
import { isOfType, typedValue, type DataType } from './typed-value.js';

export type DeviceState = 'unknown' | 'up' | 'down';

export interface DeviceError {
  readonly code: string;
  readonly message: string;
  /** The driver that failed. */
  readonly originType: string;
  readonly at: number;
}

export interface CollectorSink {
  /** Results of one poll (or one pushed message), after the pipeline. */
  output(values: readonly DatapointResult[], events: readonly PipelineEvent[]): void;
  /** The device's state changed. */
  state(state: DeviceState, error: DeviceError | null): void;
  /** A refused reading or an unreadable message; `count` is how many of this kind so far. */
  problem?(problem: CollectorProblem): void;
  /** A notification the device sent (an SNMP trap or inform), with when it arrived. */
  notification?(notification: DeviceNotification, at: number): void;
}

/** A `ReadingProblem` as the collector reports it: when, and the how-manieth of its kind. */
export interface CollectorProblem extends ReadingProblem {
  readonly at: number;
  readonly count: number;
}

export interface DeviceCollectorOptions {
  readonly pipeline: TemplatePipeline;
  /** Per driver: the plan and the configuration with the device's settings and variables applied. */
  readonly drivers: readonly { readonly plan: DriverPlan; readonly config: Readonly<Record<string, unknown>> }[];
  readonly origin: string;
  readonly registry: DriverRegistry;
  readonly sink: CollectorSink;
  /** Shared across devices: how many reads may run at once. */
  readonly limiter: Limiter;
  /** Longest wait between attempts while down; default 5 minutes. */
  readonly maxBackoffMs?: number;
  /** Per-read deadline on top of the driver's own timeouts; default 60 s. */
  readonly readDeadlineMs?: number;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly log?: (message: string) => void;
}

interface DriverRun {
  readonly originType: string;
  readonly plan: DriverPlan;
  readonly driver: Driver;
  error: DeviceError | null;
  attempted: boolean;
}

export class DeviceCollector {
  readonly evaluator: TemplateEvaluator;
  readonly #options: DeviceCollectorOptions;
  readonly #runs: DriverRun[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  /** The reads running now, aborted by `stop`. */
  readonly #reads = new Set<AbortController>();
  #state: DeviceState = 'unknown';
  #stopped = false;
  #created = false;
  #failures = 0;
  /** The declared dataType of every datapoint a driver reads, by set and datapoint (no key string per reading). */
  readonly #dataTypes = new Map<string, Map<string, DataType>>();
  readonly #problemCounts = new Map<ReadingProblem['kind'], number>();

  constructor(options: DeviceCollectorOptions) {
    this.#options = options;
    for (const { plan } of options.drivers)
      for (const request of [plan.once, plan.subscription, ...plan.polls.map((poll) => poll.request)]) {
        const add = (point: PointRequest) =>
          innerMap(this.#dataTypes, point.datapointSetId).set(point.datapointId, point.dataType);
        request.points.forEach(add);
        for (const table of request.tables) table.columns.forEach(add);
      }
    this.evaluator = createPipelineEvaluator(options.pipeline, { origin: options.origin, now: options.now });
  }

  get state(): DeviceState {
    return this.#state;
  }

  /** Creates the drivers and starts every schedule; resolves once the first reads have been started. */
  start(): void {
    for (const run of this.#driverRuns()) {
      const { driver, plan } = run;
      if (driver.kind === 'subscription') void this.#subscribe(run, driver);
      else {
        const start = driver.start?.bind(driver);
        if (start !== undefined && !isEmptyRequest(plan.subscription)) void this.#subscribe(run, { start });
        if (!isEmptyRequest(plan.once)) void this.#poll(run, plan.once);
        for (const poll of plan.polls) this.#schedule(run, poll.request, poll.periodMs, 0);
      }
    }
  }

  /** One driver per originType, created at the first `start` or `pollOnce` and kept. */
  #driverRuns(): DriverRun[] {
    if (this.#created) return this.#runs;
    this.#created = true;
    for (const { plan, config } of this.#options.drivers) {
      const factory = this.#options.registry.get(plan.originType);
      if (factory === undefined) {
        this.#options.log?.(`no driver for ${plan.originType}; its datapoints are not collected`);
        continue;
      }
      const driver = factory.create({
        config,
        origin: this.#options.origin,
        guard: this.#options.registry.guard,
        ...(this.#options.log ? { log: this.#options.log } : {}),
      });
      this.#runs.push({ originType: plan.originType, plan, driver, error: null, attempted: false });
    }
    return this.#runs;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const read of this.#reads) read.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled(this.#runs.map((run) => run.driver.close()));
  }

  /** Reads every polling group once now (the `probe --once` path); resolves when all reads are done. */
  async pollOnce(): Promise<void> {
    const reads: Promise<void>[] = [];
    for (const run of this.#driverRuns()) {
      if (run.driver.kind !== 'polling') continue;
      for (const request of [run.plan.once, ...run.plan.polls.map((poll) => poll.request)])
        if (!isEmptyRequest(request)) reads.push(this.#poll(run, request));
    }
    await Promise.all(reads);
  }

  #schedule(run: DriverRun, request: ReadRequest, periodMs: number, delayMs: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      const started = this.#now();
      void this.#poll(run, request).then(() => {
        const elapsed = this.#now() - started;
        this.#schedule(run, request, periodMs, this.#nextDelay(run, periodMs, elapsed));
      });
    }, delayMs);
    this.#timers.add(timer);
  }

  /** On time while up; while down, a growing delay (doubling, capped) with ±20 % jitter. */
  #nextDelay(run: DriverRun, periodMs: number, elapsedMs: number): number {
    if (run.error === null) return Math.max(0, periodMs - elapsedMs);
    const cap = Math.max(periodMs, this.#options.maxBackoffMs ?? 300_000);
    const base = Math.min(cap, periodMs * 2 ** Math.min(10, this.#failures - 1));
    const jitter = 1 + ((this.#options.random ?? Math.random)() * 0.4 - 0.2);
    return Math.max(0, Math.round(base * jitter) - elapsedMs);
  }

  async #poll(run: DriverRun, request: ReadRequest): Promise<void> {
    if (this.#stopped || run.driver.kind !== 'polling') return;
    const driver = run.driver;
    // One controller and one cleared timer per read: `AbortSignal.timeout` would keep its timer
    // (and `AbortSignal.any` its links) alive for the whole deadline after the read is done, a
    // few per device at 10,000 devices polled every 10 s.
    const controller = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#options.readDeadlineMs ?? 60_000).unref();
    this.#reads.add(controller);
    try {
      const result = await this.#options.limiter.run(() => driver.read(request, controller.signal));
      if (this.#stopped) return;
      this.#feed(result.updates);
      this.#driverState(run, result.failure ?? null);
    } catch (error) {
      if (this.#stopped) return;
      const failure = timedOut
        ? new DriverError('timeout', `${run.originType}: no answer within the read deadline`)
        : toDriverError(error, run.originType);
      this.#driverState(run, failure);
      this.#feed(badReadings(request, this.#now(), this.evaluator));
    } finally {
      clearTimeout(deadline);
      this.#reads.delete(controller);
    }
  }

  async #subscribe(run: DriverRun, driver: Pick<SubscriptionDriver, 'start'>): Promise<void> {
    try {
      await driver.start(run.plan.subscription, {
        updates: (updates) => {
          if (!this.#stopped) this.#feed(updates);
        },
        connection: (error) => {
          if (!this.#stopped) this.#driverState(run, error);
        },
        problem: (problem) => {
          if (!this.#stopped) this.#problem(problem);
        },
        notification: (notification) => {
          if (!this.#stopped) this.#options.sink.notification?.(notification, this.#now());
        },
      });
    } catch (error) {
      if (!this.#stopped) this.#driverState(run, toDriverError(error, run.originType));
    }
  }

  #feed(updates: readonly PipelineInput[]): void {
    if (updates.length === 0) return;
    const sink = new OutputSink();
    for (const update of updates) this.evaluator.feed(this.#typed(update), sink);
    this.#options.sink.output(sink.values, sink.events);
  }

  /** Every reading of `input` as its datapoint's dataType, or `null` with quality `bad` (decision 0045). */
  #typed(input: PipelineInput): PipelineInput {
    if ('rows' in input) {
      let changed = false;
      const rows = input.rows.map((row) =>
        row.map((cell) => {
          const typed = this.#typedReading(input.datapointSetId, cell);
          changed ||= typed !== cell;
          return typed;
        }),
      );
      return changed ? { ...input, rows } : input;
    }
    if ('removed' in input) return input;
    return this.#typedReading(input.datapointSetId, input);
  }

  #typedReading<T extends { datapointId: string; rawValue?: unknown; quality?: string }>(setId: string, reading: T): T {
    const dataType = this.#dataTypes.get(setId)?.get(reading.datapointId);
    if (dataType === undefined || reading.rawValue === null || reading.rawValue === undefined) return reading;
    if (reading.quality !== undefined && reading.quality !== 'good') return reading;
    // The usual case (a JSON number for a DOUBLE): what `typedValue` would pass unchanged, without its result object.
    if (isOfType(reading.rawValue, dataType)) return reading;
    const typed = typedValue(reading.rawValue, dataType);
    if (typed.ok) return typed.value === reading.rawValue ? reading : { ...reading, rawValue: typed.value };
    this.#problem({
      kind: 'value-refused',
      message: `${setId}/${reading.datapointId}: ${typed.reason}`,
      datapointSetId: setId,
      datapointId: reading.datapointId,
    });
    return { ...reading, rawValue: null, quality: 'bad' };
  }

  #problem(problem: ReadingProblem): void {
    const count = (this.#problemCounts.get(problem.kind) ?? 0) + 1;
    this.#problemCounts.set(problem.kind, count);
    this.#options.sink.problem?.({ ...problem, at: this.#now(), count });
  }

  /** How many problems of each kind this collector has seen since it was made. */
  problemCounts(): Readonly<Record<ReadingProblem['kind'], number>> {
    return {
      'value-refused': this.#problemCounts.get('value-refused') ?? 0,
      'payload-malformed': this.#problemCounts.get('payload-malformed') ?? 0,
    };
  }

  #driverState(run: DriverRun, error: DriverError | null): void {
    run.attempted = true;
    run.error =
      error === null ? null : { code: error.code, message: error.message, originType: run.originType, at: this.#now() };
    this.#failures = error === null ? 0 : this.#failures + 1;
    const failed = this.#runs.find((r) => r.error !== null);
    const next: DeviceState = failed !== undefined ? 'down' : this.#runs.some((r) => r.attempted) ? 'up' : 'unknown';
    const changed = next !== this.#state || (next === 'down' && failed?.error?.code !== this.#lastCode);
    this.#state = next;
    this.#lastCode = failed?.error?.code;
    if (changed) this.#options.sink.state(next, failed?.error ?? null);
  }

  #lastCode: string | undefined;

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}

/** No events: shared, never written (most readings raise nothing). */
const NO_EVENTS: readonly PipelineEvent[] = Object.freeze([]);

/** Collects the results of one `#feed` (methods on the prototype: no closures per reading). */
class OutputSink implements PipelineSink {
  readonly values: DatapointResult[] = [];
  events: readonly PipelineEvent[] = NO_EVENTS;
  value(result: DatapointResult): void {
    this.values.push(result);
  }
  event(event: PipelineEvent): void {
    if (this.events === NO_EVENTS) this.events = [event];
    else (this.events as PipelineEvent[]).push(event);
  }
}

/**
 * What a failed read means for the pipeline: every datapoint it asked for has no value: the
 * scalar ones, and each column of every row the pipeline knows of the tables it asked for (the
 * rows stay; a dead device says nothing about which rows exist).
 */
function badReadings(request: ReadRequest, timestamp: number, evaluator: TemplateEvaluator): PipelineInput[] {
  const updates: PipelineInput[] = request.points.map((point) => pointReading(point, null, timestamp));
  if (request.tables.length === 0) return updates;
  const snapshot = new Map(evaluator.snapshot().map((set) => [set.datapointSetId, set]));
  for (const table of request.tables)
    for (const row of snapshot.get(table.datapointSetId)?.rows ?? [])
      for (const column of table.columns)
        updates.push({
          ...pointReading(column, null, timestamp),
          ...(row.tableIndex !== undefined ? { tableIndex: row.tableIndex } : {}),
        });
  return updates;
}
