/**
 * Scalar datapoints by GET: the distinct OIDs of one request in as few PDUs as `maxVarbinds`
 * allows. An object the agent lacks costs only its own datapoint: SNMPv2c/v3 agents answer it with
 * noSuchObject/noSuchInstance; an SNMPv1 agent fails the whole PDU with noSuchName naming it, so
 * the PDU is sent again without it. A `tooBig` answer halves the PDU.
 */
import type snmp from 'net-snmp';
import type { DatapointUpdate } from '@triad/device-templates';
import type { PointRequest } from '../../driver.js';
import type { SnmpClient } from './snmp-client.js';
import { agentErrorStatus } from './snmp-errors.js';
import type { SnmpSettings } from './snmp-settings.js';
import { normalizeOid, type OidResolver } from './oid.js';
import { readingOf } from './snmp-values.js';

export async function readScalars(
  client: SnmpClient,
  settings: SnmpSettings,
  points: readonly PointRequest[],
  signal: AbortSignal,
  log?: (message: string) => void,
  resolve: OidResolver = normalizeOid,
): Promise<DatapointUpdate[]> {
  const oids = new Map<PointRequest, string | undefined>();
  for (const point of points) {
    const oid = resolve(point.originAddress);
    if (oid === undefined)
      log?.(
        `${point.datapointSetId}/${point.datapointId}: '${point.originAddress}' is not an OID ` +
          `or a known MIB name; it reads as bad`,
      );
    oids.set(point, oid);
  }
  const distinct = [...new Set([...oids.values()].filter((oid) => oid !== undefined))];
  const found = new Map<string, snmp.Varbind>();
  for (let i = 0; i < distinct.length; i += settings.maxVarbinds)
    await getInto(client, distinct.slice(i, i + settings.maxVarbinds), found, signal);
  const timestamp = Date.now();
  return points.map((point) => {
    const oid = oids.get(point);
    const varbind = oid === undefined ? undefined : found.get(oid);
    const reading = varbind === undefined ? { rawValue: null, quality: 'bad' } : readingOf(varbind, point);
    return {
      datapointSetId: point.datapointSetId,
      datapointId: point.datapointId,
      rawValue: reading.rawValue,
      quality: reading.quality,
      timestamp,
    };
  });
}

/** GETs `oids` into `found`; OIDs the agent refuses one by one are left out of it. */
async function getInto(
  client: SnmpClient,
  oids: readonly string[],
  found: Map<string, snmp.Varbind>,
  signal: AbortSignal,
): Promise<void> {
  if (oids.length === 0) return;
  let varbinds: snmp.Varbind[];
  try {
    varbinds = await client.get(oids, signal);
  } catch (error) {
    const agent = agentErrorStatus(error);
    if (agent === undefined) throw error;
    if (oids.length === 1) return;
    const named = agent.oid === undefined ? -1 : oids.indexOf(agent.oid);
    if (named !== -1) return getInto(client, oids.toSpliced(named, 1), found, signal);
    const half = Math.ceil(oids.length / 2);
    await getInto(client, oids.slice(0, half), found, signal);
    return getInto(client, oids.slice(half), found, signal);
  }
  oids.forEach((oid, i) => {
    const varbind = varbinds[i];
    if (varbind !== undefined) found.set(oid, varbind);
  });
}
