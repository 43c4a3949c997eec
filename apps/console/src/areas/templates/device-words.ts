/**
 * A device's numbers and codes as a person reads them: severity bands by name, driver error codes
 * as sentences, values formatted for the browser's locale with their unit.
 */

/**
 * The band of a severity, as the value pipeline names it (`severityLevel` in
 * packages/device-templates): 1 to 200 notification (log evaluations), 201 to 400 info, 401 to
 * 600 warning, 601 to 800 error, 801 to 1000 critical.
 */
export function severityLevel(severity: number): 'notification' | 'info' | 'warning' | 'error' | 'critical' {
  if (severity > 800) return 'critical';
  if (severity > 600) return 'error';
  if (severity > 400) return 'warning';
  if (severity > 200) return 'info';
  return 'notification';
}

/** `Critical (801)`: the band's name first, the number for those who filter on it. */
export function severityText(severity: number): string {
  const level = severityLevel(severity);
  return `${level.charAt(0).toUpperCase()}${level.slice(1)} (${severity})`;
}

const DRIVER_ERRORS: Readonly<Record<string, string>> = {
  timeout: 'The device did not answer in time. Check that it is on and reachable, or raise the timeout.',
  refused: 'The device refused the connection. Check the port and that the service runs on the device.',
  unreachable: 'The device cannot be reached. Check its address and the network path to it.',
  authentication: 'The device refused the credentials. Check the community, user or password in the driver settings.',
  protocol: 'The device answered in a way the driver does not understand. Check the driver settings and the device.',
  configuration: 'The driver settings cannot be used. Correct them under the device.',
  unsupported: 'The driver cannot read what the template asks for.',
  forbidden: "The service's address policy does not allow this address; nothing was sent to it.",
};

/** Why a device is down, in words, from the driver's error code. */
export function driverErrorSentence(code: string): string {
  return DRIVER_ERRORS[code] ?? 'The driver could not read the device.';
}

/**
 * An alarm's or event's text with the datapoint named by its alias: template authors (and the
 * starter templates) write the datapoint id into their texts (`packetLoss has no value`), the
 * page names datapoints by alias everywhere else. Only whole-word occurrences are replaced, and
 * only when the alias differs from the id.
 */
export function withAlias(text: string, datapointId: string, alias: string): string {
  if (alias === datapointId || datapointId === '') return text;
  const escaped = datapointId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\w.])${escaped}(?![\\w])`, 'g'), () => alias);
}

/** A number for the browser's locale: at most 3 decimals, digits grouped. */
export function formatNumber(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(value);
}

/** How a widget field reads its value (`fieldType` of the template's representation). */
export type FieldType = 'string' | 'boolean' | 'numeric' | 'date' | 'severity' | undefined;

/**
 * A value as a page shows it, with its unit: numbers for the locale, booleans as yes or no,
 * severities by name, dates in the locale's form; `null` as "no value".
 */
export function formatValue(value: unknown, unit?: string, fieldType?: string, locale?: string): string {
  if (value === null || value === undefined) return 'no value';
  if (fieldType === 'severity' && typeof value === 'number') return severityText(value);
  if (fieldType === 'date' && (typeof value === 'string' || typeof value === 'number')) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) return at.toLocaleString(locale);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const shown =
    typeof value === 'number' ? formatNumber(value, locale) : typeof value === 'string' ? value : JSON.stringify(value);
  return unit ? `${shown} ${unit}` : shown;
}
