/**
 * The system-limit alarm families (WombatOAM's `wombat_plugin_alarm` ids), their thresholds, and
 * the hysteresis rule that turns a reading into a level. Pure: no clock, no I/O.
 */

/** A family of built-in threshold alarms; `<family>_minor` and `<family>_major` are its alarm ids. */
export type LimitFamily =
  | 'process_limit'
  | 'port_limit'
  | 'atom_limit'
  | 'ets_limit'
  | 'module_limit'
  | 'export_limit'
  | 'open_fd_limit_node'
  | 'memory_limit'
  | 'disk_capacity'
  | 'process_message_queue';

/** Every family, in the order the collector checks them. */
export const LIMIT_FAMILIES: readonly LimitFamily[] = Object.freeze([
  'process_limit',
  'port_limit',
  'atom_limit',
  'ets_limit',
  'module_limit',
  'export_limit',
  'open_fd_limit_node',
  'memory_limit',
  'disk_capacity',
  'process_message_queue',
]);

/** Raise levels of one family: percent of the limit, or messages for `process_message_queue`. */
export interface LimitThreshold {
  readonly minor: number;
  readonly major: number;
}

/**
 * WombatOAM's defaults: 70 % / 85 % of each limit, but 80 % / 90 % for exports and 75 % / 90 % for
 * file descriptors; 5,000 / 20,000 messages in one queue.
 */
export const DEFAULT_LIMIT_THRESHOLDS: Readonly<Record<LimitFamily, LimitThreshold>> = Object.freeze({
  process_limit: { minor: 70, major: 85 },
  port_limit: { minor: 70, major: 85 },
  atom_limit: { minor: 70, major: 85 },
  ets_limit: { minor: 70, major: 85 },
  module_limit: { minor: 70, major: 85 },
  export_limit: { minor: 80, major: 90 },
  open_fd_limit_node: { minor: 75, major: 90 },
  memory_limit: { minor: 70, major: 85 },
  disk_capacity: { minor: 70, major: 85 },
  process_message_queue: { minor: 5_000, major: 20_000 },
});

/** Percentage points below a raise level at which a percentage alarm clears. */
export const PERCENT_CLEAR_GAP = 5;
/** Share of a raise level under which a message-queue alarm clears (80 %: 4,000 for 5,000). */
export const QUEUE_CLEAR_RATIO = 0.8;

/** Severity of an active alarm of a family, or none. */
export type LimitLevel = 'minor' | 'major' | undefined;

/** The level at which a raised alarm clears again. */
export function clearLevel(family: LimitFamily, raise: number): number {
  return family === 'process_message_queue' ? raise * QUEUE_CLEAR_RATIO : raise - PERCENT_CLEAR_GAP;
}

/**
 * The level of a family after reading `value` when it was at `previous`: `major` at or above the
 * major raise level, or while it stays at or above the major clear level; else `minor` likewise;
 * else none. So a value between the clear and raise levels keeps what it had.
 */
export function nextLevel(
  family: LimitFamily,
  threshold: LimitThreshold,
  previous: LimitLevel,
  value: number,
): LimitLevel {
  if (value >= threshold.major) return 'major';
  if (previous === 'major' && value >= clearLevel(family, threshold.major)) return 'major';
  if (value >= threshold.minor) return 'minor';
  if (previous !== undefined && value >= clearLevel(family, threshold.minor)) return 'minor';
  return undefined;
}

/** Thresholds by family, with overrides for some node families (by family name). */
export interface LimitThresholdSettings {
  readonly defaults: Readonly<Record<LimitFamily, LimitThreshold>>;
  /** Node family name -> the families it overrides. */
  readonly byNodeFamily: ReadonlyMap<string, Readonly<Partial<Record<LimitFamily, LimitThreshold>>>>;
}

/** The thresholds that apply to a node of the given node family. */
export function thresholdFor(
  settings: LimitThresholdSettings,
  family: LimitFamily,
  nodeFamily?: string,
): LimitThreshold {
  return (
    (nodeFamily !== undefined ? settings.byNodeFamily.get(nodeFamily)?.[family] : undefined) ??
    settings.defaults[family]
  );
}

/** Pattern of one entry of the `limitAlarmThresholds` setting (the config schema uses it). */
export const LIMIT_THRESHOLD_ENTRY = `(${LIMIT_FAMILIES.join('|')})(@[^=,@]{1,255})?=[0-9]{1,9}/[0-9]{1,9}`;

/**
 * Reads the `limitAlarmThresholds` setting: a comma list of `<family>[@<node family name>]=<minor>/<major>`
 * (`process_limit=60/80,process_message_queue@billing=1000/5000`); an entry without `@` changes the
 * default of every node family. Empty: WombatOAM's defaults.
 * @throws Error naming every entry whose minor level is not below its major level, or whose
 *   percentage exceeds 100.
 */
export function parseLimitThresholds(text: string): LimitThresholdSettings {
  const defaults: Record<LimitFamily, LimitThreshold> = { ...DEFAULT_LIMIT_THRESHOLDS };
  const byNodeFamily = new Map<string, Partial<Record<LimitFamily, LimitThreshold>>>();
  const problems: string[] = [];
  const entry = new RegExp(`^${LIMIT_THRESHOLD_ENTRY}$`);
  for (const item of text.split(',').filter((part) => part !== '')) {
    const match = entry.exec(item);
    // The pattern admits only the listed families, so a match always finds its family.
    const family = LIMIT_FAMILIES.find((name) => name === match?.[1]);
    if (!match || family === undefined) {
      problems.push(`${item}: not <family>[@<node family>]=<minor>/<major>`);
      continue;
    }
    const [minor = 0, major = 0] = item
      .slice(item.lastIndexOf('=') + 1)
      .split('/')
      .map(Number);
    if (minor >= major) problems.push(`${item}: the minor level must be below the major level`);
    else if (family !== 'process_message_queue' && major > 100) problems.push(`${item}: a percentage above 100`);
    else if (match[2] === undefined) defaults[family] = { minor, major };
    else {
      const name = match[2].slice(1);
      byNodeFamily.set(name, { ...byNodeFamily.get(name), [family]: { minor, major } });
    }
  }
  if (problems.length > 0) throw new Error(`limitAlarmThresholds: ${problems.join('; ')}`);
  return { defaults: Object.freeze(defaults), byNodeFamily };
}
