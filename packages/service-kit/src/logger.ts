import { createRequire } from 'node:module';
import { destination as pinoDestination, pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface CreateLoggerOptions {
  /** Default `info`. */
  readonly level?: LogLevel;
  /** Human-readable lines via `pino-pretty` when it is installed; JSON lines otherwise. */
  readonly pretty?: boolean;
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

/** Creates the process logger: pino with secrets redacted (`[redacted]`). */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    ...(options.service ? { base: { service: options.service } } : {}),
  };
  const fd = options.stream === 'stderr' ? 2 : 1;
  if (options.pretty && !options.destination && prettyAvailable()) {
    return pino({ ...config, transport: { target: 'pino-pretty', options: { colorize: true, destination: fd } } });
  }
  return pino(config, options.destination ?? pinoDestination({ fd, sync: true }));
}

function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
