/**
 * The alarms `erlang:system_monitor/2` reports, their thresholds, and the setting that changes
 * them per node family. Pure: no clock, no I/O.
 */

/** A kind of system monitor event; it is also the id of its alarm. */
export type SystemMonitorKind = 'long_gc' | 'long_schedule' | 'large_heap' | 'busy_port' | 'busy_dist_port';

/** Every kind, in the order alarms are checked and described. */
export const SYSTEM_MONITOR_KINDS: readonly SystemMonitorKind[] = Object.freeze([
  'long_gc',
  'long_schedule',
  'large_heap',
  'busy_port',
  'busy_dist_port',
]);

/**
 * What is watched for each kind: milliseconds for `long_gc` and `long_schedule`, megabytes of heap
 * for `large_heap`, on or off for the two busy ports; `false` switches the kind off.
 */
export type SystemMonitorThresholds = Readonly<Record<SystemMonitorKind, number | boolean>>;

/**
 * Defaults: a garbage collection or an uninterrupted run of 500 ms, a process heap of 256 MB, and
 * every busy port. A scheduler is meant to switch every millisecond or so, so 500 ms is far past
 * anything a healthy node does, and rare enough on a loaded machine not to cry wolf.
 */
export const DEFAULT_SYSTEM_MONITOR_THRESHOLDS: SystemMonitorThresholds = Object.freeze({
  long_gc: 500,
  long_schedule: 500,
  large_heap: 256,
  busy_port: true,
  busy_dist_port: true,
});

/** Severity of each kind's alarm: a busy distribution port slows the whole cluster. */
export const SYSTEM_MONITOR_SEVERITY: Readonly<Record<SystemMonitorKind, 'minor' | 'major'>> = Object.freeze({
  long_gc: 'minor',
  long_schedule: 'minor',
  large_heap: 'major',
  busy_port: 'minor',
  busy_dist_port: 'major',
});

/** Thresholds of every node family, with overrides for some (by family name). */
export interface SystemMonitorSettings {
  readonly defaults: SystemMonitorThresholds;
  readonly byNodeFamily: ReadonlyMap<string, Readonly<Partial<Record<SystemMonitorKind, number | boolean>>>>;
}

/** Pattern of one entry of the `systemMonitorAlarms` setting (the config schema uses it). */
export const SYSTEM_MONITOR_ENTRY = `(${SYSTEM_MONITOR_KINDS.join('|')})(@[^=,@]{1,255})?=(off|on|[0-9]{1,7})`;

/** Largest millisecond threshold (an hour) and megabyte threshold (1 TB) the setting takes. */
const MAX_MS = 3_600_000;
const MAX_MB = 1_048_576;

/**
 * Reads the `systemMonitorAlarms` setting: `off` alone switches every kind off; otherwise a comma
 * list of `<kind>[@<node family name>]=<value>` where the value is milliseconds (`long_gc`,
 * `long_schedule`), megabytes (`large_heap`), `on` or `off` (`long_gc=200,busy_port@billing=off`).
 * An entry without `@` changes the default of every node family. Empty: the defaults.
 * @throws Error naming every entry that does not fit its kind.
 */
export function parseSystemMonitorSettings(text: string): SystemMonitorSettings {
  const defaults: Record<SystemMonitorKind, number | boolean> = { ...DEFAULT_SYSTEM_MONITOR_THRESHOLDS };
  const byNodeFamily = new Map<string, Partial<Record<SystemMonitorKind, number | boolean>>>();
  const items = text.split(',').filter((part) => part !== '');
  if (items.length === 1 && items[0] === 'off') {
    for (const kind of SYSTEM_MONITOR_KINDS) defaults[kind] = false;
    return { defaults: Object.freeze(defaults), byNodeFamily };
  }
  const problems: string[] = [];
  const entry = /^([a-z_]+)(@[^=,@]{1,255})?=(off|on|[0-9]{1,7})$/;
  for (const item of items) {
    const match = entry.exec(item);
    const kind = SYSTEM_MONITOR_KINDS.find((name) => name === match?.[1]);
    if (!match || kind === undefined) {
      problems.push(`${item}: not <kind>[@<node family>]=<value> with a kind of ${SYSTEM_MONITOR_KINDS.join(', ')}`);
      continue;
    }
    const value = valueOf(kind, match[3]!);
    if (typeof value === 'string') {
      problems.push(`${item}: ${value}`);
      continue;
    }
    if (match[2] === undefined) defaults[kind] = value;
    else {
      const name = match[2].slice(1);
      byNodeFamily.set(name, { ...byNodeFamily.get(name), [kind]: value });
    }
  }
  if (problems.length > 0) throw new Error(`systemMonitorAlarms: ${problems.join('; ')}`);
  return { defaults: Object.freeze(defaults), byNodeFamily };
}

/** The value of one entry, or the reason it does not fit its kind. */
function valueOf(kind: SystemMonitorKind, text: string): number | boolean | string {
  const busy = kind === 'busy_port' || kind === 'busy_dist_port';
  if (text === 'off') return false;
  if (text === 'on') return busy ? true : `${kind} takes a number (${unitOf(kind)}) or off`;
  if (busy) return `${kind} takes on or off`;
  const value = Number(text);
  const max = kind === 'large_heap' ? MAX_MB : MAX_MS;
  if (value < 1 || value > max) return `${kind} takes 1 to ${max} ${unitOf(kind)}`;
  return value;
}

function unitOf(kind: SystemMonitorKind): string {
  return kind === 'large_heap' ? 'megabytes' : 'milliseconds';
}

/** The thresholds that apply to a node of the given node family. */
export function systemMonitorThresholdsFor(
  settings: SystemMonitorSettings,
  nodeFamily?: string,
): SystemMonitorThresholds {
  const overrides = nodeFamily !== undefined ? settings.byNodeFamily.get(nodeFamily) : undefined;
  return overrides ? { ...settings.defaults, ...overrides } : settings.defaults;
}

/** Whether any kind is watched. */
export function anyWatched(thresholds: SystemMonitorThresholds): boolean {
  return SYSTEM_MONITOR_KINDS.some((kind) => thresholds[kind] !== false);
}
