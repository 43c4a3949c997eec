import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@triad/db';
import type { AlarmsTable, NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import type { AlarmQuery, AlarmRecord } from './alarm-record.js';
import { presentAlarm } from './alarm-presenter.js';

type Db = Kysely<NodeManagerDatabase> | Transaction<NodeManagerDatabase>;

/**
 * Kysely queries of alarms. Cleared alarms stay stored (`active = 0`) for the hourly counters.
 * Every write also stores the alarm's presented list form (`list_json`), kept in step here.
 */
export class AlarmRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database) {
    this.#db = (database as Database<NodeManagerDatabase>).db;
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (trx: Transaction<NodeManagerDatabase>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  /** Active alarms matching the query, newest first. */
  async list(query: AlarmQuery): Promise<AlarmRecord[]> {
    const q = this.#matching(query);
    if (!q) return [];
    const rows = await q.selectAll().orderBy('event_us', 'desc').limit(query.limit).execute();
    return rows.map(toRecord);
  }

  /**
   * The same alarms as `list`, each already presented (`presentAlarm`) as JSON text: the list
   * replies read this one stored column instead of decoding every field. Rows stored before the
   * column existed (NULL) are presented from their fields and the text is stored for next time.
   */
  async listPresented(query: AlarmQuery): Promise<string[]> {
    const q = this.#matching(query);
    if (!q) return [];
    const rows = await q.select(['event_us', 'list_json']).orderBy('event_us', 'desc').limit(query.limit).execute();
    const missing = rows.filter((r) => r.list_json === null).map((r) => r.event_us);
    if (missing.length === 0) return rows.map((r) => r.list_json as string);
    const built = new Map<string, string>();
    for (const row of await this.#db.selectFrom('nm_alarms').selectAll().where('event_us', 'in', missing).execute()) {
      const text = presentedText(toRecord(row));
      built.set(String(row.event_us), text);
      await this.#db.updateTable('nm_alarms').set({ list_json: text }).where('event_us', '=', row.event_us).execute();
    }
    return rows.map((r) => r.list_json ?? built.get(String(r.event_us)) ?? '');
  }

  /** The filtered, not yet projected query of `list`; undefined when nothing can match. */
  #matching(query: AlarmQuery) {
    if (query.nodeIds?.length === 0 || (query.tags !== 'all' && query.tags.length === 0)) return undefined;
    let q = this.#db.selectFrom('nm_alarms').where('active', '=', 1);
    if (query.nodeIds) q = q.where('node_id', 'in', [...query.nodeIds]);
    if (query.source !== undefined) q = q.where('custom', '=', query.source);
    if (query.beforeUs !== undefined) q = q.where('event_us', '<', query.beforeUs);
    const tags = query.tags;
    if (tags !== 'all') {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('nm_alarm_tags as t')
            .select('t.tag')
            .whereRef('t.event_us', '=', 'nm_alarms.event_us')
            .where('t.tag', 'in', [...tags]),
        ),
      );
    }
    return q;
  }

  /** Distinct sources of the active alarms (of the given nodes). */
  async activeSources(nodeIds?: readonly string[]): Promise<string[]> {
    if (nodeIds?.length === 0) return [];
    let q = this.#db.selectFrom('nm_alarms').select('custom').distinct().where('active', '=', 1);
    if (nodeIds) q = q.where('node_id', 'in', [...nodeIds]);
    return (await q.execute()).map((r) => r.custom);
  }

  /** The active alarm with this id and raw source, or undefined. */
  async findActive(alarmId: string, rawSrc: string, db: Db = this.#db): Promise<AlarmRecord | undefined> {
    const row = await db.selectFrom('nm_alarms').selectAll().where('alarm_id', '=', alarmId).where('active', '=', 1).where('raw_src', '=', rawSrc).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async newestEventUs(): Promise<number> {
    const row = await this.#db.selectFrom('nm_alarms').select((eb) => eb.fn.max('event_us').as('m')).executeTakeFirst();
    return Number(row?.m ?? 0);
  }

  async insert(alarm: AlarmRecord, raisedAt: number, db: Db = this.#db): Promise<void> {
    await db.insertInto('nm_alarms').values({ ...toRow(alarm), raised_at: raisedAt, cleared_at: null }).execute();
    if (alarm.tags.length > 0) {
      await db
        .insertInto('nm_alarm_tags')
        .values([...new Set(alarm.tags)].map((tag) => ({ event_us: alarm.eventUs, tag })))
        .execute();
    }
  }

  /**
   * Rewrites an alarm's mutable fields (state, ack, comments, details) and its presented form;
   * its tag rows too unless `tagsUnchanged` (state changes and comments keep the tags).
   */
  async update(alarm: AlarmRecord, db: Db = this.#db, tagsUnchanged = false): Promise<void> {
    const { event_us: _key, ...fields } = toRow(alarm);
    await db.updateTable('nm_alarms').set(fields).where('event_us', '=', alarm.eventUs).execute();
    if (tagsUnchanged) return;
    await db.deleteFrom('nm_alarm_tags').where('event_us', '=', alarm.eventUs).execute();
    if (alarm.tags.length > 0) {
      await db
        .insertInto('nm_alarm_tags')
        .values([...new Set(alarm.tags)].map((tag) => ({ event_us: alarm.eventUs, tag })))
        .execute();
    }
  }

  async markCleared(eventUs: number, at: number, db: Db = this.#db): Promise<void> {
    await db.updateTable('nm_alarms').set({ active: 0, cleared_at: at }).where('event_us', '=', eventUs).execute();
  }

  async countActive(): Promise<number> {
    const row = await this.#db.selectFrom('nm_alarms').select((eb) => eb.fn.countAll().as('n')).where('active', '=', 1).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async countRaisedSince(since: number): Promise<number> {
    const row = await this.#db.selectFrom('nm_alarms').select((eb) => eb.fn.countAll().as('n')).where('raised_at', '>=', since).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** The stored list form of an alarm. */
function presentedText(alarm: AlarmRecord): string {
  return JSON.stringify(presentAlarm(alarm));
}

function toRow(a: AlarmRecord): Omit<AlarmsTable, 'raised_at' | 'cleared_at'> {
  return {
    event_us: a.eventUs,
    alarm_id: a.alarmId,
    node_id: a.nodeId,
    node_name: a.nodeName,
    custom: a.custom,
    elarm_server: a.elarmServer,
    raw_src: a.rawSrc,
    alarm_type_json: JSON.stringify(a.alarmType ?? null),
    severity: a.severity,
    probable_cause: a.probableCause,
    proposed_repair_action: a.proposedRepairAction,
    description: a.description,
    additional_information: a.additionalInformation,
    correlated_events: a.correlatedEvents,
    comments_json: JSON.stringify(a.comments),
    trend_json: JSON.stringify(a.trend ?? null),
    threshold_json: JSON.stringify(a.threshold ?? null),
    state: a.state,
    ack_user: a.ackUser,
    ack_time: a.ackTime,
    tags_json: JSON.stringify(a.tags),
    active: a.active ? 1 : 0,
    list_json: presentedText(a),
  };
}

function toRecord(row: Selectable<AlarmsTable>): AlarmRecord {
  return {
    eventUs: Number(row.event_us),
    alarmId: row.alarm_id,
    nodeId: row.node_id,
    nodeName: row.node_name,
    custom: row.custom,
    elarmServer: row.elarm_server,
    rawSrc: row.raw_src,
    alarmType: JSON.parse(row.alarm_type_json),
    severity: row.severity,
    probableCause: row.probable_cause,
    proposedRepairAction: row.proposed_repair_action,
    description: row.description,
    additionalInformation: row.additional_information,
    correlatedEvents: row.correlated_events,
    comments: JSON.parse(row.comments_json),
    trend: JSON.parse(row.trend_json),
    threshold: JSON.parse(row.threshold_json),
    state: row.state === 'acknowledged' ? 'acknowledged' : 'new',
    ackUser: row.ack_user,
    ackTime: row.ack_time === null ? null : Number(row.ack_time),
    tags: JSON.parse(row.tags_json),
    active: Number(row.active) === 1,
  };
}
