/** Logger levels, most severe first (RFC 5424 names, as Erlang's `logger` uses them). */
export const LOG_LEVELS = ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** True for one of the eight logger levels. */
export function isLogLevel(value: string): value is LogLevel {
  return LOG_LEVELS.some((level) => level === value);
}
