/**
 * A received notification as a device event (`DeviceNotification`): its OID and varbinds named
 * where a MIB module read names them, and bounded in size so that a device sending large
 * notifications fills no table: the first `TRAP_SUMMARY_LIMITS.varbinds` varbinds, each value as
 * text of at most `TRAP_SUMMARY_LIMITS.valueChars` characters.
 */
import type { DeviceNotification } from '../../driver.js';
import type { ReceivedTrap } from './trap-receiver.js';

export const TRAP_SUMMARY_LIMITS = Object.freeze({
  varbinds: 16,
  valueChars: 120,
});

/** `trap` summarised; `nameOf` names OIDs (`MibNames.nameOf`), undefined for an OID no module names. */
export function summariseTrap(trap: ReceivedTrap, nameOf: (oid: string) => string | undefined): DeviceNotification {
  const trapName = nameOf(trap.trapOid);
  return {
    kind: trap.kind,
    version: trap.version,
    source: trap.source,
    trapOid: trap.trapOid,
    ...(trapName === undefined ? {} : { trapName }),
    upTime: trap.upTime ?? null,
    varbinds: trap.varbinds.slice(0, TRAP_SUMMARY_LIMITS.varbinds).map(({ oid, value }) => {
      const name = nameOf(oid);
      return { oid, ...(name === undefined ? {} : { name }), value: shortText(value) };
    }),
    varbindsOmitted: Math.max(0, trap.varbinds.length - TRAP_SUMMARY_LIMITS.varbinds),
  };
}

function shortText(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Buffer.isBuffer(value)) text = `0x${value.toString('hex')}`;
  else if (typeof value === 'bigint') text = value.toString();
  else text = JSON.stringify(value) ?? String(value);
  return text.length <= TRAP_SUMMARY_LIMITS.valueChars ? text : `${text.slice(0, TRAP_SUMMARY_LIMITS.valueChars - 1)}…`;
}
