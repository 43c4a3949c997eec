/**
 * Walks table columns together: each request carries one cursor per column still running, a
 * GETBULK (v2c, v3) whose repetitions are shared among those columns, or a GETNEXT (v1). A column
 * ends when the agent's answer leaves it (the next column, endOfMibView, or for v1 a noSuchName
 * error). The agent must move forward; a walk that does not, or that runs past `MAX_REQUESTS`,
 * fails as a protocol error instead of looping.
 */
import type snmp from 'net-snmp';
import { DriverError } from '../../driver-error.js';
import type { SnmpClient } from './snmp-client.js';
import { agentErrorStatus } from './snmp-errors.js';
import type { SnmpSettings } from './snmp-settings.js';
import { compareOids, isBelow, suffixAfter } from './oid.js';
import { isMissing } from './snmp-values.js';

/** Per column OID, its varbinds by row index (the OID suffix after the column), in walk order. */
export type ColumnValues = Map<string, Map<string, snmp.Varbind>>;

const MAX_REQUESTS = 5000;
/** Varbinds one GETBULK may ask for in all, so that the answer stays well inside one datagram. */
const BULK_VARBINDS = 120;

interface Cursor {
  readonly column: string;
  oid: string;
}

export async function walkColumns(
  client: SnmpClient,
  settings: SnmpSettings,
  columns: readonly string[],
  signal: AbortSignal,
): Promise<ColumnValues> {
  const values: ColumnValues = new Map(columns.map((column) => [column, new Map<string, snmp.Varbind>()]));
  let cursors: Cursor[] = [...new Set(columns)].map((column) => ({ column, oid: column }));
  for (let requests = 0; cursors.length > 0; requests++) {
    if (requests === MAX_REQUESTS)
      throw new DriverError(
        'protocol',
        `SNMP agent ${settings.address}:${settings.port}: the walk of ${columns[0] ?? ''} did not end ` +
          `after ${MAX_REQUESTS} requests`,
      );
    const answers = await step(client, settings, cursors, signal);
    if (answers === undefined) continue; // a v1 column ended with noSuchName; cursors were updated
    let progressed = false;
    const running: Cursor[] = [];
    cursors.forEach((cursor, i) => {
      let ended = false;
      for (const varbind of answers[i] ?? []) {
        if (isMissing(varbind) || !isBelow(cursor.column, varbind.oid) || compareOids(varbind.oid, cursor.oid) <= 0) {
          ended = true;
          break;
        }
        values.get(cursor.column)!.set(suffixAfter(cursor.column, varbind.oid), varbind);
        cursor.oid = varbind.oid;
        progressed = true;
      }
      if (!ended) running.push(cursor);
    });
    if (!progressed && running.length > 0)
      throw new DriverError(
        'protocol',
        `SNMP agent ${settings.address}:${settings.port}: the walk of ${columns[0] ?? ''} made no progress`,
      );
    cursors = running;
  }
  return values;
}

/** One request for every cursor; `undefined` when a v1 agent ended a column with noSuchName. */
async function step(
  client: SnmpClient,
  settings: SnmpSettings,
  cursors: Cursor[],
  signal: AbortSignal,
): Promise<snmp.Varbind[][] | undefined> {
  const oids = cursors.map((cursor) => cursor.oid);
  if (settings.version !== '1') {
    const repetitions = Math.max(1, Math.min(settings.maxRepetitions, Math.floor(BULK_VARBINDS / oids.length)));
    return client.getBulk(oids, repetitions, signal);
  }
  try {
    return (await client.getNext(oids, signal)).map((varbind) => [varbind]);
  } catch (error) {
    const agent = agentErrorStatus(error);
    if (agent === undefined) throw error;
    // noSuchName for a GETNEXT: nothing follows that cursor. Unnamed, with one cursor: the same.
    const named = agent.oid === undefined ? -1 : oids.indexOf(agent.oid);
    if (named === -1 && cursors.length > 1) throw error;
    cursors.splice(named === -1 ? 0 : named, 1);
    return undefined;
  }
}
