import { nmError } from '../errors.js';
import type { NodeManagerEvents, AlarmEvent } from '../events/node-manager-events.js';
import type { TagRepository } from '../repositories/tag-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import {
  DEFAULT_ALARM_TAGS,
  NODE_LEVEL_SOURCE,
  type AlarmListForm,
  type AlarmRecord,
  type RaiseAlarmInput,
} from '../model/alarm-record.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import { alarmSourceText } from '../model/erlang-terms.js';

/** Sees each alarm change made through this instance's commands (`AlarmCommands.observe`). */
export type AlarmObserver = (action: AlarmEvent['action'], alarm: AlarmRecord) => void;

/** Actions on an alarm named by `alarmId` and `alarmSrc` (= its `rawSrc`). */
export interface AlarmAction {
  readonly alarmId: string;
  readonly alarmSrc: string;
  /** Who acts: the signed-in user, or the body's `userId` when authentication is off. */
  readonly user: string;
}

/**
 * The alarm state machine (new <-> acknowledged, clear from any state, comments on any) and the
 * internal API the monitoring code calls (`raise`, `clear`: the monitors' `AlarmSink`). Every change is
 * published, the alarm in its `listForm` (the alarm presenter, handed in by the composition root).
 */
export class AlarmCommands {
  readonly #alarms: AlarmRepository;
  readonly #topology: TopologyRepository;
  readonly #tags: TagRepository;
  readonly #events: NodeManagerEvents;
  readonly #listForm: AlarmListForm;
  readonly #now: () => number;
  readonly #observers = new Set<AlarmObserver>();
  #lastEventUs: number | undefined;

  constructor(
    alarms: AlarmRepository,
    topology: TopologyRepository,
    tags: TagRepository,
    events: NodeManagerEvents,
    listForm: AlarmListForm,
    now: () => number = Date.now,
  ) {
    this.#alarms = alarms;
    this.#topology = topology;
    this.#tags = tags;
    this.#events = events;
    this.#listForm = listForm;
    this.#now = now;
  }

  /**
   * Raises an alarm, or updates the active one with the same id and source (its event id stays).
   * Its custom tags join the known tags (`GET /api/tags`).
   * @throws NM_ERR_NODE_NOT_FOUND when the node is unknown and no `nodeName` is given.
   */
  async raise(input: RaiseAlarmInput): Promise<{ alarm: AlarmRecord; created: boolean }> {
    const nodeName = input.nodeName ?? (await this.#topology.findNode(input.nodeId))?.name;
    if (nodeName === undefined) throw nmError('NM_ERR_NODE_NOT_FOUND', input.nodeId);
    const custom = input.custom ?? NODE_LEVEL_SOURCE;
    const elarmServer = input.elarmServer ?? 'wombat';
    const rawSrc = alarmSourceText(input.nodeId, nodeName, custom, elarmServer);
    const eventUs = await this.#nextEventUs();
    const result = await this.#alarms.transaction(async (trx) => {
      const existing = await this.#alarms.findActive(input.alarmId, rawSrc, trx);
      const details = {
        alarmType: input.alarmType ?? existing?.alarmType ?? null,
        severity: input.severity ?? existing?.severity ?? 'indeterminate',
        probableCause: input.probableCause ?? existing?.probableCause ?? '',
        proposedRepairAction: input.proposedRepairAction ?? existing?.proposedRepairAction ?? '',
        description: input.description ?? existing?.description ?? '',
        additionalInformation: input.additionalInformation ?? existing?.additionalInformation ?? '',
        correlatedEvents: input.correlatedEvents ?? existing?.correlatedEvents ?? '[]',
        trend: input.trend ?? existing?.trend ?? null,
        threshold: input.threshold ?? existing?.threshold ?? null,
        tags: input.tags ?? existing?.tags ?? DEFAULT_ALARM_TAGS,
      };
      if (input.tags) await this.#tags.remember(input.tags, trx);
      if (existing) {
        const updated = { ...existing, ...details };
        await this.#alarms.update(updated, trx);
        return { alarm: updated, created: false };
      }
      const alarm: AlarmRecord = {
        eventUs,
        alarmId: input.alarmId,
        nodeId: input.nodeId,
        nodeName,
        custom,
        elarmServer,
        rawSrc,
        ...details,
        comments: [],
        state: 'new',
        ackUser: null,
        ackTime: null,
        active: true,
      };
      await this.#alarms.insert(alarm, Math.floor(eventUs / 1000), trx);
      return { alarm, created: true };
    });
    this.#publish(result.created ? 'raised' : 'updated', result.alarm);
    return result;
  }

  /**
   * Adds an observer of every change this instance makes, called once the change is stored (the
   * notifications' outbox, docs/decisions/0043); returns its removal. Observers must not throw or wait.
   */
  observe(observer: AlarmObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Whether an alarm with this id and raw source is active (raised and not cleared). */
  async isActive(alarmId: string, rawSrc: string): Promise<boolean> {
    return (await this.#alarms.findActive(alarmId, rawSrc)) !== undefined;
  }

  /** Internal clear by id and source (the alarm ceased); false when no such active alarm. */
  async clear(alarmId: string, rawSrc: string): Promise<boolean> {
    const alarm = await this.#alarms.findActive(alarmId, rawSrc);
    if (!alarm) return false;
    await this.#alarms.markCleared(alarm.eventUs, this.#now());
    this.#publish('cleared', { ...alarm, active: false });
    return true;
  }

  /** new -> acknowledged, with ackInfo. @throws NM_ERR_ALARM_NOT_FOUND, NM_ERR_ALARM_STATE */
  async acknowledge(action: AlarmAction): Promise<void> {
    await this.#change(action, 'acknowledged', (alarm) => {
      if (alarm.state !== 'new') throw nmError('NM_ERR_ALARM_STATE', 'already acknowledged');
      return { ...alarm, state: 'acknowledged', ackUser: action.user, ackTime: this.#now() };
    });
  }

  /** acknowledged -> new, ackInfo removed. @throws NM_ERR_ALARM_NOT_FOUND, NM_ERR_ALARM_STATE */
  async unacknowledge(action: AlarmAction): Promise<void> {
    await this.#change(action, 'unacknowledged', (alarm) => {
      if (alarm.state !== 'acknowledged') throw nmError('NM_ERR_ALARM_STATE', 'not acknowledged');
      return { ...alarm, state: 'new', ackUser: null, ackTime: null };
    });
  }

  /** Adds `{user, time, text}` to the comments. @throws NM_ERR_ALARM_NOT_FOUND */
  async comment(action: AlarmAction, text: string): Promise<void> {
    await this.#change(action, 'commented', (alarm) => ({
      ...alarm,
      comments: [...alarm.comments, { user: action.user, time: this.#now(), text }],
    }));
  }

  /** Removes the alarm from the lists. @throws NM_ERR_ALARM_NOT_FOUND */
  async clearByUser(action: AlarmAction): Promise<void> {
    if (!(await this.clear(action.alarmId, action.alarmSrc))) throw nmError('NM_ERR_ALARM_NOT_FOUND');
  }

  /** Applies `next` (which must keep the tags) to the active alarm named by `action`, in one transaction. */
  async #change(
    action: AlarmAction,
    event: AlarmEvent['action'],
    next: (alarm: AlarmRecord) => AlarmRecord,
  ): Promise<void> {
    const changed = await this.#alarms.transaction(async (trx) => {
      const alarm = await this.#alarms.findActive(action.alarmId, action.alarmSrc, trx);
      if (!alarm) throw nmError('NM_ERR_ALARM_NOT_FOUND');
      const updated = next(alarm);
      await this.#alarms.update(updated, trx, true);
      return updated;
    });
    this.#publish(event, changed);
  }

  #publish(action: AlarmEvent['action'], alarm: AlarmRecord): void {
    for (const observer of this.#observers) {
      try {
        observer(action, alarm);
      } catch {
        // An observer must not break the change that it observes.
      }
    }
    this.#events.emit({
      type: 'alarm',
      action,
      alarm: this.#listForm(alarm),
      eventUs: alarm.eventUs,
      tags: alarm.tags,
    });
  }

  /** Event instants are unique and increasing in this process, so they can key and page alarms. */
  async #nextEventUs(): Promise<number> {
    this.#lastEventUs ??= await this.#alarms.newestEventUs();
    const candidate = this.#now() * 1000;
    this.#lastEventUs = candidate > this.#lastEventUs ? candidate : this.#lastEventUs + 1;
    return this.#lastEventUs;
  }
}
