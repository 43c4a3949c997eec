import type { TrapReceiverStats } from '@triad/device-drivers';

/** The label of each count of the trap receiver. */
const OUTCOMES: readonly (readonly [keyof TrapReceiverStats, string])[] = [
  ['received', 'taken'],
  ['unknownSource', 'unknown_source'],
  ['wrongCredentials', 'wrong_credentials'],
  ['tooLarge', 'too_large'],
  ['rateLimited', 'rate_limited'],
  ['malformed', 'malformed'],
];

/**
 * `triad_snmp_notifications_total{outcome}`: what the SNMP trap receiver did with each datagram
 * since it started (Prometheus text format). `taken` went to a device; the others were dropped
 * without being stored. Empty while the receiver is off or not bound yet.
 */
export function presentTrapMetrics(stats: TrapReceiverStats | undefined): string {
  if (stats === undefined) return '';
  return (
    '# HELP triad_snmp_notifications_total SNMP traps and informs at the receiver, by outcome.\n' +
    '# TYPE triad_snmp_notifications_total counter\n' +
    OUTCOMES.map(([key, outcome]) => `triad_snmp_notifications_total{outcome="${outcome}"} ${stats[key]}\n`).join('')
  );
}
