import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import {
  deviceAlarmId,
  sameAlarm,
  type DeviceAlarmKey,
  type DeviceAlarmRecord,
  type DeviceErrorRecord,
  type DeviceEventRecord,
  type DeviceRecord,
} from '../model/device-record.js';
import type { TemplatesDatabase } from './templates-tables.js';
import type { AlarmChange } from '../model/alarm-change.js';

type DeviceRow = TemplatesDatabase['devices'];

/** The device tables: devices, their raised alarms and their events. */
export class DeviceRepository {
  readonly #db: Kysely<TemplatesDatabase>;
  #lastSeq = 0;

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
  }

  async create(device: DeviceRecord): Promise<void> {
    await this.#db.insertInto('devices').values(toRow(device)).execute();
  }

  async find(id: string): Promise<DeviceRecord | undefined> {
    const row = await this.#db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  }

  async list(): Promise<DeviceRecord[]> {
    const rows = await this.#db.selectFrom('devices').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(fromRow);
  }

  /** Every device id (what the instances share among themselves). */
  async ids(): Promise<string[]> {
    const rows = await this.#db.selectFrom('devices').select('id').execute();
    return rows.map((row) => row.id);
  }

  /** Replaces the stored device (same id); false when there is none. */
  async replace(device: DeviceRecord): Promise<boolean> {
    const { id, ...rest } = toRow(device);
    const result = await this.#db.updateTable('devices').set(rest).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Stores `after` as the device's variables if they are still `before` (nothing else changes);
   * false when the device is gone or its variables changed meanwhile.
   */
  async replaceVariables(
    id: string,
    before: Readonly<Record<string, string>>,
    after: Readonly<Record<string, string>>,
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('devices')
      .set({ variables_json: JSON.stringify(after) })
      .where('id', '=', id)
      .where('variables_json', '=', JSON.stringify(before))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('device_events').where('device_id', '=', id).execute();
      await trx.deleteFrom('device_alarms').where('device_id', '=', id).execute();
      const result = await trx.deleteFrom('devices').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    });
  }

  async setState(id: string, state: DeviceRecord['state'], error: DeviceErrorRecord | null, at: number): Promise<void> {
    await this.#db
      .updateTable('devices')
      .set({ state, last_error_json: error === null ? null : JSON.stringify(error), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async alarms(deviceId: string): Promise<DeviceAlarmRecord[]> {
    return this.#alarmsIn(this.#db, deviceId);
  }

  async #alarmsIn(db: Kysely<TemplatesDatabase>, deviceId: string): Promise<DeviceAlarmRecord[]> {
    const rows = await db
      .selectFrom('device_alarms')
      .selectAll()
      .where('device_id', '=', deviceId)
      .orderBy('raised_at', 'desc')
      .orderBy('severity', 'desc')
      .execute();
    return rows.map((row) => ({
      datapointSetId: row.datapoint_set_id,
      datapointId: row.datapoint_id,
      row: row.row_key === '' ? null : row.row_key,
      severity: row.severity,
      text: row.text,
      textHelp: row.text_help,
      raisedAt: Number(row.raised_at),
      value: JSON.parse(row.value_json) as unknown,
      acknowledged: row.acked_by === null ? null : { by: row.acked_by, at: Number(row.acked_at) },
    }));
  }

  /**
   * Acknowledges (`by` set) or unacknowledges (`by` null) one raised alarm and stores the event
   * (`alarm-acknowledged` / `alarm-unacknowledged`) in the same transaction. Acknowledging an
   * acknowledged alarm keeps the first who and when, and stores no event; likewise undoing.
   * Returns the alarm as it is now and the event stored, or undefined when it is not raised.
   */
  async acknowledge(
    deviceId: string,
    key: DeviceAlarmKey,
    by: string | null,
    at: number,
  ): Promise<{ alarm: DeviceAlarmRecord; event: DeviceEventRecord | undefined } | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const where = trx
        .updateTable('device_alarms')
        .where('device_id', '=', deviceId)
        .where('datapoint_set_id', '=', key.datapointSetId)
        .where('datapoint_id', '=', key.datapointId)
        .where('row_key', '=', key.row ?? '')
        .where('severity', '=', key.severity);
      const changed = await (
        by === null
          ? where.set({ acked_by: null, acked_at: null }).where('acked_by', 'is not', null)
          : where.set({ acked_by: by, acked_at: at }).where('acked_by', 'is', null)
      ).executeTakeFirst();
      const alarm = (await this.#alarmsIn(trx, deviceId)).find((a) => sameAlarm(a, key));
      if (alarm === undefined) return undefined;
      if (changed.numUpdatedRows === 0n) return { alarm, event: undefined };
      const body = {
        alarmId: deviceAlarmId(alarm),
        severity: alarm.severity,
        text: alarm.text,
        datapointSetId: alarm.datapointSetId,
        datapointId: alarm.datapointId,
        row: alarm.row,
        ...(by === null ? {} : { by }),
      };
      const type = by === null ? 'alarm-unacknowledged' : 'alarm-acknowledged';
      return { alarm, event: await this.#insertEvent(trx, deviceId, type, at, body) };
    });
  }

  /**
   * Applies a batch of alarm changes and events in one transaction. A raise of an alarm already
   * stored, or a clear of one not stored, changes nothing and its event is dropped (a restart
   * re-evaluates from scratch: this is what keeps it from repeating or inventing events).
   * Returns the events that were stored.
   */
  async record(
    deviceId: string,
    changes: readonly AlarmChange[],
    logs: readonly Omit<DeviceEventRecord, 'seq' | 'deviceId'>[],
  ): Promise<DeviceEventRecord[]> {
    if (changes.length === 0 && logs.length === 0) return [];
    return this.#db.transaction().execute(async (trx) => {
      const stored: DeviceEventRecord[] = [];
      for (const change of changes) {
        const key = {
          device_id: deviceId,
          datapoint_set_id: change.alarm.datapointSetId,
          datapoint_id: change.alarm.datapointId,
          row_key: change.alarm.row ?? '',
          severity: change.alarm.severity,
        };
        let applied: boolean;
        if (change.type === 'alarm-raised') {
          const result = await trx
            .insertInto('device_alarms')
            .values({
              ...key,
              text: change.alarm.text,
              text_help: change.alarm.textHelp,
              raised_at: change.alarm.raisedAt,
              value_json: JSON.stringify(change.alarm.value ?? null),
            })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
          applied = (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
        } else {
          const deleted = await trx
            .deleteFrom('device_alarms')
            .where('device_id', '=', key.device_id)
            .where('datapoint_set_id', '=', key.datapoint_set_id)
            .where('datapoint_id', '=', key.datapoint_id)
            .where('row_key', '=', key.row_key)
            .where('severity', '=', key.severity)
            .executeTakeFirst();
          applied = deleted.numDeletedRows > 0n;
        }
        if (applied) stored.push(await this.#insertEvent(trx, deviceId, change.type, change.at, change.body));
      }
      for (const log of logs) stored.push(await this.#insertEvent(trx, deviceId, log.type, log.at, log.body));
      return stored;
    });
  }

  /** Events newest first, those after `since` (epoch ms) when given, at most `limit`. */
  async events(deviceId: string, since: number | undefined, limit: number): Promise<DeviceEventRecord[]> {
    let query = this.#db.selectFrom('device_events').selectAll().where('device_id', '=', deviceId);
    if (since !== undefined) query = query.where('at', '>', since);
    const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
    return rows.map(fromEventRow);
  }

  /** One stored event by its sequence number. */
  async event(seq: number): Promise<DeviceEventRecord | undefined> {
    const row = await this.#db.selectFrom('device_events').selectAll().where('seq', '=', seq).executeTakeFirst();
    return row === undefined ? undefined : fromEventRow(row);
  }

  async #insertEvent(
    trx: Kysely<TemplatesDatabase>,
    deviceId: string,
    type: string,
    at: number,
    body: Readonly<Record<string, unknown>>,
  ): Promise<DeviceEventRecord> {
    // Several instances may write events in the same microsecond: the one that finds its number
    // taken moves on to the next.
    for (let seq = Math.max(Date.now() * 1000, this.#lastSeq + 1); ; seq += 1) {
      this.#lastSeq = seq;
      const result = await trx
        .insertInto('device_events')
        .values({ seq, device_id: deviceId, type, at, body_json: JSON.stringify(body) })
        .onConflict((oc) => oc.column('seq').doNothing())
        .executeTakeFirst();
      if ((result.numInsertedOrUpdatedRows ?? 0n) > 0n) return { seq, deviceId, type, at, body };
    }
  }
}

function fromEventRow(row: TemplatesDatabase['device_events']): DeviceEventRecord {
  return {
    seq: Number(row.seq),
    deviceId: row.device_id,
    type: row.type,
    at: Number(row.at),
    body: JSON.parse(row.body_json) as Record<string, unknown>,
  };
}

function toRow(device: DeviceRecord): DeviceRow {
  return {
    id: device.id,
    name: device.name,
    template_id: device.templateId,
    template_version: device.templateVersion,
    variables_json: JSON.stringify(device.variables),
    drivers_json: JSON.stringify(device.drivers),
    state: device.state,
    last_error_json: device.lastError === null ? null : JSON.stringify(device.lastError),
    created_at: device.createdAt,
    updated_at: device.updatedAt,
  };
}

function fromRow(row: DeviceRow): DeviceRecord {
  return {
    id: row.id,
    name: row.name,
    templateId: row.template_id,
    templateVersion: row.template_version,
    variables: JSON.parse(row.variables_json) as Record<string, string>,
    drivers: JSON.parse(row.drivers_json) as Record<string, Record<string, unknown>>,
    state: row.state as DeviceRecord['state'],
    lastError: row.last_error_json === null ? null : (JSON.parse(row.last_error_json) as DeviceErrorRecord),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
