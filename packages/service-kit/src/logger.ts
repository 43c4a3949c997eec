import { isatty } from 'node:tty';
import { destination as pinoDestination, pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** How log lines look: `pretty` human-readable lines, `json` one JSON object per line. */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface CreateLoggerOptions {
  /** Default `info`. */
  readonly level?: LogLevel;
  /**
   * `pretty` (human-readable lines via pino-pretty), `json`, or `auto` (the default): pretty when
   * the lines go to a terminal, JSON otherwise (a file, a pipe, a log collector, a `destination`).
   */
  readonly format?: LogFormat | 'auto';
  /** Where lines go; wins over `stream`. */
  readonly destination?: DestinationStream;
  /** Standard stream for lines when no destination is given; default `stdout`. */
  readonly stream?: 'stdout' | 'stderr';
  /** Added to every line as `service`. */
  readonly service?: string;
}

/** Paths whose values never reach a log line. */
export const REDACTED_PATHS: readonly string[] = Object.freeze([
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...[
    'password',
    'secret',
    'token',
    'accessToken',
    'refreshToken',
    'apiKey',
    'authorization',
    'cookie',
    'clientSecret',
  ].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
]);

/**
 * The format `auto` stands for: `pretty` when `isTerminal` (the lines' destination is a
 * terminal), else `json`. An explicit format is returned as given.
 */
export function resolveLogFormat(format: LogFormat | 'auto' | undefined, isTerminal: boolean): LogFormat {
  if (format === 'pretty' || format === 'json') return format;
  return isTerminal ? 'pretty' : 'json';
}

/**
 * Creates the process logger: pino with secrets redacted (`[redacted]`), writing synchronously
 * (no worker thread, nothing lost at exit) as JSON lines or, per `format`, pretty lines (colours
 * only on a terminal). Redaction applies to both formats.
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    ...(options.service ? { base: { service: options.service } } : {}),
  };
  const fd = options.stream === 'stderr' ? 2 : 1;
  const toTerminal = !options.destination && isatty(fd);
  const destination = options.destination ?? pinoDestination({ fd, sync: true });
  if (resolveLogFormat(options.format, toTerminal) === 'json') return pino(config, destination);
  const pretty = pinoPretty({
    colorize: toTerminal,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
    destination,
  });
  return pino(config, pretty);
}
