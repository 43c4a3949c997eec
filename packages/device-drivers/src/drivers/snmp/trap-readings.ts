/**
 * Which datapoints a notification fills (decision 0049): an SNMP datapoint with `receiveMode`
 * `subscription` whose `originAddress` is the notification's OID (`IF-MIB::linkDown` or
 * `1.3.6.1.6.3.1.1.5.3`) takes the notification as its value, so the template's ordinary
 * `alertConfig` on that datapoint raises and clears alarms. Stays within the NetinDS format: no
 * new key, only a use of `subscription` the SNMP driver did not have.
 */
import type { DatapointUpdate } from '@triad/device-templates';
import type { PointRequest } from '../../driver.js';
import type { OidResolver } from './oid.js';
import type { ReceivedTrap } from './trap-receiver.js';

/** The value a trap datapoint takes: the notification, its varbinds keyed by OID. */
export interface TrapValue {
  readonly trapOid: string;
  readonly kind: 'trap' | 'inform';
  readonly upTime: number | null;
  readonly varbinds: Readonly<Record<string, unknown>>;
}

/** One update per subscription datapoint of `points` whose address resolves to the trap's OID. */
export function trapReadings(
  trap: ReceivedTrap,
  points: readonly PointRequest[],
  resolve: OidResolver,
  timestamp: number,
): DatapointUpdate[] {
  const value: TrapValue = {
    trapOid: trap.trapOid,
    kind: trap.kind,
    upTime: trap.upTime ?? null,
    varbinds: Object.fromEntries(trap.varbinds.map((varbind) => [varbind.oid, varbind.value])),
  };
  return points
    .filter((point) => point.receiveMode === 'subscription' && resolve(point.originAddress) === trap.trapOid)
    .map((point) => ({
      datapointSetId: point.datapointSetId,
      datapointId: point.datapointId,
      rawValue: value,
      quality: 'good',
      timestamp,
    }));
}
