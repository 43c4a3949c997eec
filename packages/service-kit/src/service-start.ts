import type { Logger } from 'pino';
import type { ConsoleLink } from './console/serve-console.js';
import type { Environment } from './config/load-config.js';
import { createLogger, type LogFormat, type LogLevel } from './logger.js';

/** What every service's `start...Server` takes besides its config overrides. */
export interface ServiceStartOptions<Overrides> {
  /** Environment to read; default `process.env` (read in the service's `config.ts`). */
  readonly env?: Environment;
  /**
   * Settings used where neither the overrides nor the environment set one (`triad serve
   * --port-base` passes its ports here, so `TRIAD_*_PORT` still wins over them).
   */
  readonly fallbacks?: Overrides;
  /** Default: `serviceLogger`'s logger. */
  readonly logger?: Logger;
  /**
   * Close on SIGINT/SIGTERM and exit the process (a second signal exits at once). Default false:
   * a host such as `triad serve` that runs several services handles signals itself.
   */
  readonly handleSignals?: boolean;
  /**
   * Every service's console for the shell's navigation, read at each page load (`triad serve`
   * fills it in as services start); default: only this service's.
   */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /**
   * The console's build folder (`index.html` and `assets/`), which `triad serve` resolves; default
   * none: `/` answers a page saying how to build the console.
   */
  readonly consoleRoot?: string;
}

/** The settings `serviceLogger` reads. */
export interface ServiceLogSettings {
  readonly logLevel: LogLevel;
  /** Unset: pretty lines on a terminal, JSON lines otherwise. */
  readonly logFormat?: LogFormat | undefined;
}

/**
 * `given` when there is one, else the service's own logger: lines to standard error at the
 * configured level and format, each tagged with `service`.
 */
export function serviceLogger(given: Logger | undefined, settings: ServiceLogSettings, service: string): Logger {
  return (
    given ?? createLogger({ level: settings.logLevel, format: settings.logFormat ?? 'auto', stream: 'stderr', service })
  );
}
