import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '@triad/db';
import type {
  DeliveryAttempt,
  DeliveryStatus,
  NotificationRecord,
  NotifiedAlarm,
} from '../model/notification-records.js';
import type { NodeManagerDatabase, NotificationAttemptsTable, NotificationsTable } from './node-manager-tables.js';

/** A notification with its attempts, oldest attempt first (`GET /api/notifications/deliveries`). */
export interface Delivery {
  readonly notification: NotificationRecord;
  readonly attempts: readonly DeliveryAttempt[];
}

/** What happens to a notification after an attempt. */
export interface AttemptOutcome {
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: number;
}

/**
 * The notification outbox: alarm handling inserts rows (`enqueue`, one per channel and alarm
 * change, a repeated one ignored), the delivery worker claims the due ones (`claimDue`) and
 * records each attempt (`finish`). On a database with concurrent writers (PostgreSQL) the claim
 * locks its rows `FOR UPDATE SKIP LOCKED`, so two instances never claim one notification; a claim
 * whose holder died is taken over once `claimed_until` has passed.
 */
export class NotificationOutboxRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #lockRows: boolean;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
    this.#lockRows = database.capabilities.concurrentWriters;
  }

  /** Inserts one pending notification per channel; returns how many were new. */
  async enqueue(channelIds: readonly string[], alarm: NotifiedAlarm, now: number): Promise<number> {
    if (channelIds.length === 0) return 0;
    const rows = channelIds.map((channelId) => ({
      id: randomUUID(),
      channel_id: channelId,
      dedup_key: `${channelId}:${alarm.action}:${alarm.eventUs}`,
      alarm_json: JSON.stringify(alarm),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      claimed_by: null,
      claimed_until: null,
      created_at: now,
    }));
    const result = await this.#db
      .insertInto('nm_notifications')
      .values(rows)
      .onConflict((oc) => oc.column('dedup_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }

  /** Claims up to `limit` due notifications for `instanceId` until `now + leaseMs`. */
  async claimDue(instanceId: string, now: number, limit: number, leaseMs: number): Promise<NotificationRecord[]> {
    return this.#db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('nm_notifications')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
            eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', now)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
      if (this.#lockRows) due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      await trx
        .updateTable('nm_notifications')
        .set({ status: 'sending', claimed_by: instanceId, claimed_until: now + leaseMs })
        .where('id', 'in', ids)
        .execute();
      const rows = await trx.selectFrom('nm_notifications').selectAll().where('id', 'in', ids).execute();
      return rows.map(notificationOf);
    });
  }

  /** Records an attempt and the notification's next state (only while `instanceId` still holds the claim). */
  async finish(instanceId: string, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('nm_notification_attempts')
        .values({
          id: randomUUID(),
          notification_id: attempt.notificationId,
          attempt: attempt.attempt,
          started_at: attempt.startedAt,
          duration_ms: attempt.durationMs,
          ok: attempt.ok ? 1 : 0,
          status_code: attempt.statusCode,
          reply: attempt.reply,
          error: attempt.error,
        })
        .execute();
      await trx
        .updateTable('nm_notifications')
        .set({
          status: outcome.status,
          attempts: attempt.attempt,
          next_attempt_at: outcome.nextAttemptAt,
          claimed_by: null,
          claimed_until: null,
        })
        .where('id', '=', attempt.notificationId)
        .where('claimed_by', '=', instanceId)
        .execute();
    });
  }

  /** The newest notifications (of a channel, in a status) with their attempts. */
  async deliveries(filter: {
    channelId?: string;
    status?: DeliveryStatus;
    limit: number;
    /** How many of the newest to skip; default 0. */
    offset?: number;
  }): Promise<Delivery[]> {
    let query = this.#db.selectFrom('nm_notifications').selectAll();
    if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset ?? 0)
      .execute();
    if (rows.length === 0) return [];
    const attempts = await this.#db
      .selectFrom('nm_notification_attempts')
      .selectAll()
      .where(
        'notification_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('attempt')
      .execute();
    return rows.map((row) => ({
      notification: notificationOf(row),
      attempts: attempts.filter((a) => a.notification_id === row.id).map(attemptOf),
    }));
  }
}

function notificationOf(row: Selectable<NotificationsTable>): NotificationRecord {
  return {
    id: row.id,
    channelId: row.channel_id,
    alarm: JSON.parse(row.alarm_json) as NotifiedAlarm,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    createdAt: Number(row.created_at),
  };
}

function attemptOf(row: Selectable<NotificationAttemptsTable>): DeliveryAttempt {
  return {
    notificationId: row.notification_id,
    attempt: row.attempt,
    startedAt: Number(row.started_at),
    durationMs: row.duration_ms,
    ok: row.ok === 1,
    statusCode: row.status_code,
    reply: row.reply,
    error: row.error,
  };
}
