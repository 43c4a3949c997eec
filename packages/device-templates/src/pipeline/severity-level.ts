import type { SeverityLevel } from './pipeline-types.js';

/**
 * The band name of a severity: notification 1..200 (log evaluations), info 201..400, warning
 * 401..600, error 601..800, critical 801..1000. INFERRED from the driver API's notifier base
 * values; severities outside 1..1000 (the schema never lets them through) read as notification.
 */
export function severityLevel(severity: number): SeverityLevel {
  if (severity > 800) return 'critical';
  if (severity > 600) return 'error';
  if (severity > 400) return 'warning';
  if (severity > 200) return 'info';
  return 'notification';
}

/** True for log evaluations (severity 1..200), which emit events but never raise alarms. */
export function isLogSeverity(severity: number): boolean {
  return severity <= 200;
}
