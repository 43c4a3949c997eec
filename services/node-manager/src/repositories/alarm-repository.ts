import type { Kysely, Selectable, Transaction } from 'kysely';
import { QueryTemplates, type Database } from '@triad/db';
import type { AlarmsTable, NodeManagerDatabase } from './node-manager-tables.js';
import { ReadCache, readCachesFit } from './read-cache.js';
import type { AlarmComment, AlarmListForm, AlarmQuery, AlarmRecord } from '../model/alarm-record.js';

type Db = Kysely<NodeManagerDatabase> | Transaction<NodeManagerDatabase>;

/**
 * Kysely queries of alarms. Cleared alarms stay stored (`active = 0`) for the hourly counters.
 * Every write also stores the alarm's list form (`list_json`: the `AlarmListForm` the composition
 * root hands in, the alarm presenter), kept in step here.
 */
export class AlarmRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #templates: QueryTemplates<NodeManagerDatabase>;
  readonly #listForm: AlarmListForm;
  /**
   * Present where this process is the only writer (SQLite), or where the change bus reports the
   * other instances' alarm changes (`sharedListCacheMs`); see `ReadCache`.
   */
  readonly #cache: ReadCache<readonly string[]> | undefined;

  /**
   * `listCache` forces the list cache on or off (default: on SQLite only). `sharedListCacheMs`
   * turns it on for a database several instances write, each result kept at most that long: the
   * caller must call `forgetCachedReads()` whenever another instance reports an alarm change, and
   * the age bounds how stale a list gets should such a report be lost.
   */
  constructor(
    database: Database<NodeManagerDatabase>,
    listForm: AlarmListForm,
    options: { listCache?: boolean; sharedListCacheMs?: number; now?: () => number } = {},
  ) {
    this.#db = database.db;
    this.#listForm = listForm;
    this.#templates = new QueryTemplates(this.#db);
    const sizeOf = (texts: readonly string[]) => texts.reduce((n, text) => n + text.length, 0);
    if (options.sharedListCacheMs !== undefined && options.listCache !== false)
      this.#cache = new ReadCache(sizeOf, undefined, undefined, {
        ms: options.sharedListCacheMs,
        now: options.now ?? Date.now,
      });
    else if (options.listCache ?? readCachesFit(database)) this.#cache = new ReadCache(sizeOf);
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (trx: Transaction<NodeManagerDatabase>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  /** Active alarms matching the query, newest first. */
  async list(query: AlarmQuery): Promise<AlarmRecord[]> {
    if (nothingMatches(query)) return [];
    const rows = await this.#matching(query).selectAll().orderBy('event_us', 'desc').limit(query.limit).execute();
    return rows.map(toRecord);
  }

  /**
   * The same alarms as `list`, each already in its list form as JSON text: the list
   * replies read this one stored column instead of decoding every field. Rows stored before the
   * column existed (NULL) are presented from their fields and the text is stored for next time.
   * The query is compiled once per shape (`QueryTemplates`) and, on SQLite, its result kept
   * until the next alarm write (`ReadCache`): this is the hottest read.
   */
  async listPresented(query: AlarmQuery): Promise<readonly string[]> {
    if (nothingMatches(query)) return [];
    const cache = this.#cache;
    if (!cache) return this.#queryPresented(query);
    return cache.through(`${listShape(query)}\u0000${JSON.stringify(listValues(query))}`, () =>
      this.#queryPresented(query),
    );
  }

  /**
   * Stores the list form of every alarm that has none yet (rows written before migration 0002),
   * `batch` rows per transaction; returns how many were built. Run at start-up so that lists do
   * not write on the read path. Lists still build a missing form themselves if one slips by.
   */
  async presentMissing(batch = 1000): Promise<number> {
    let built = 0;
    for (;;) {
      const rows = await this.#db
        .selectFrom('nm_alarms')
        .selectAll()
        .where('list_json', 'is', null)
        .orderBy('event_us')
        .limit(batch)
        .execute();
      if (rows.length === 0) return built;
      await this.#db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx
            .updateTable('nm_alarms')
            .set({ list_json: this.#presentedText(toRecord(row)) })
            .where('event_us', '=', row.event_us)
            .execute();
        }
      });
      built += rows.length;
    }
  }

  /** Forgets cached list results; for code that changed alarm rows without this repository. */
  forgetCachedReads(): void {
    this.#cache?.invalidate();
  }

  async #queryPresented(query: AlarmQuery): Promise<string[]> {
    const rows = await this.#templates.execute(
      listShape(query),
      (slot) =>
        this.#matching(query, slot).select(['event_us', 'list_json']).orderBy('event_us', 'desc').limit(slot('limit')),
      listValues(query),
    );
    const missing = rows.filter((r) => r.list_json === null).map((r) => r.event_us);
    if (missing.length === 0) return rows.map((r) => r.list_json ?? '');
    const built = new Map<string, string>();
    for (const row of await this.#db.selectFrom('nm_alarms').selectAll().where('event_us', 'in', missing).execute()) {
      const text = this.#presentedText(toRecord(row));
      built.set(String(row.event_us), text);
      await this.#db.updateTable('nm_alarms').set({ list_json: text }).where('event_us', '=', row.event_us).execute();
    }
    return rows.map((r) => r.list_json ?? built.get(String(r.event_us)) ?? '');
  }

  /**
   * The filtered, not yet projected query of the lists. `value(name, actual)` supplies each
   * bound value: the actual one, or a template slot of that name (see `listValues`).
   */
  #matching(query: AlarmQuery, value: (name: string, actual: unknown) => unknown = (_name, actual) => actual) {
    // The values are typed by the query's own fields; `value` only renames or passes them.
    const v = value as <T>(name: string, actual: T) => T;
    let q = this.#db.selectFrom('nm_alarms').where('active', '=', 1);
    if (query.nodeIds)
      q = q.where(
        'node_id',
        'in',
        query.nodeIds.map((id, i) => v(`node${i}`, id)),
      );
    if (query.source !== undefined) q = q.where('custom', '=', v('source', query.source));
    if (query.beforeUs !== undefined) q = q.where('event_us', '<', v('before', query.beforeUs));
    const tags = query.tags;
    if (tags !== 'all') {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('nm_alarm_tags as t')
            .select('t.tag')
            .whereRef('t.event_us', '=', 'nm_alarms.event_us')
            .where(
              't.tag',
              'in',
              tags.map((tag, i) => v(`tag${i}`, tag)),
            ),
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

  /** The list form (`list_json`) and tags of the alarm with this key, active or not; undefined when unknown. */
  async findPresented(eventUs: number): Promise<{ alarm: unknown; tags: readonly string[] } | undefined> {
    const row = await this.#db.selectFrom('nm_alarms').selectAll().where('event_us', '=', eventUs).executeTakeFirst();
    if (!row) return undefined;
    const record = toRecord(row);
    return {
      alarm: row.list_json === null ? this.#listForm(record) : parseJson(row.list_json),
      tags: record.tags,
    };
  }

  /** The active alarm with this id and raw source, or undefined. */
  async findActive(alarmId: string, rawSrc: string, db: Db = this.#db): Promise<AlarmRecord | undefined> {
    const row = await db
      .selectFrom('nm_alarms')
      .selectAll()
      .where('alarm_id', '=', alarmId)
      .where('active', '=', 1)
      .where('raw_src', '=', rawSrc)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async newestEventUs(): Promise<number> {
    const row = await this.#db
      .selectFrom('nm_alarms')
      .select((eb) => eb.fn.max('event_us').as('m'))
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  }

  async insert(alarm: AlarmRecord, raisedAt: number, db: Db = this.#db): Promise<void> {
    this.#cache?.invalidate();
    await db
      .insertInto('nm_alarms')
      .values({ ...this.#toRow(alarm), raised_at: raisedAt, cleared_at: null })
      .execute();
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
    this.#cache?.invalidate();
    const { event_us: _key, ...fields } = this.#toRow(alarm);
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
    this.#cache?.invalidate();
    await db.updateTable('nm_alarms').set({ active: 0, cleared_at: at }).where('event_us', '=', eventUs).execute();
  }

  /** The stored list form of an alarm. */
  #presentedText(alarm: AlarmRecord): string {
    return JSON.stringify(this.#listForm(alarm));
  }

  /** The whole row of an alarm, its list form included. */
  #toRow(alarm: AlarmRecord): Omit<AlarmsTable, 'raised_at' | 'cleared_at'> {
    return { ...toRow(alarm), list_json: this.#presentedText(alarm) };
  }

  async countActive(): Promise<number> {
    const row = await this.#db
      .selectFrom('nm_alarms')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('active', '=', 1)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async countRaisedSince(since: number): Promise<number> {
    const row = await this.#db
      .selectFrom('nm_alarms')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('raised_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** True when the query cannot match anything (an empty node or tag list). */
function nothingMatches(query: AlarmQuery): boolean {
  return query.nodeIds?.length === 0 || (query.tags !== 'all' && query.tags.length === 0);
}

/** Names the shape of a list query: which filters it has and how long its lists are. */
export function listShape(query: AlarmQuery): string {
  const nodes = query.nodeIds?.length ?? '-';
  const tags = query.tags === 'all' ? '-' : query.tags.length;
  return `n${nodes} s${query.source !== undefined ? 1 : 0} b${query.beforeUs !== undefined ? 1 : 0} t${tags}`;
}

/** The bound values of a list query, named as `#matching` names its slots. */
export function listValues(query: AlarmQuery): Record<string, unknown> {
  const values: Record<string, unknown> = { limit: query.limit };
  query.nodeIds?.forEach((id, i) => (values[`node${i}`] = id));
  if (query.source !== undefined) values.source = query.source;
  if (query.beforeUs !== undefined) values.before = query.beforeUs;
  if (query.tags !== 'all') query.tags.forEach((tag, i) => (values[`tag${i}`] = tag));
  return values;
}

/** The row of an alarm, but for its list form (`list_json`). */
function toRow(a: AlarmRecord): Omit<AlarmsTable, 'raised_at' | 'cleared_at' | 'list_json'> {
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
  };
}

/** A stored JSON column, its shape unknown until the reader checks it. */
function parseJson(text: string): unknown {
  return JSON.parse(text);
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
    alarmType: parseJson(row.alarm_type_json),
    severity: row.severity,
    probableCause: row.probable_cause,
    proposedRepairAction: row.proposed_repair_action,
    description: row.description,
    additionalInformation: row.additional_information,
    correlatedEvents: row.correlated_events,
    comments: JSON.parse(row.comments_json) as AlarmComment[],
    trend: parseJson(row.trend_json),
    threshold: parseJson(row.threshold_json),
    state: row.state === 'acknowledged' ? 'acknowledged' : 'new',
    ackUser: row.ack_user,
    ackTime: row.ack_time === null ? null : Number(row.ack_time),
    tags: JSON.parse(row.tags_json) as string[],
    active: Number(row.active) === 1,
  };
}
