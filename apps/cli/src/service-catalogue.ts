import { startContentApiServer } from '@triad/content-api-service';
import { startNodeManagerServer } from '@triad/node-manager-service';
import type { ConsoleArea, ConsoleLink, LogFormat } from '@triad/service-kit';
import { startTemplatesServer } from '@triad/templates-service';

/** Options every service understands when started by `triad serve`. */
export interface ServeOptions {
  readonly host: string;
  /** Explicit port (`--port`): wins over the service's `TRIAD_*_PORT` variable. */
  readonly port?: number;
  /**
   * Port used when neither `port` nor the service's `TRIAD_*_PORT` variable gives one (what
   * `--port-base` derives); without it, the service's default port.
   */
  readonly fallbackPort?: number;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /** Streaming replicas the content API reads from (`--database-read-url`). */
  readonly databaseReadUrls?: readonly string[];
  readonly demo: boolean;
  /** `--log-format`; unset: the service's `TRIAD_LOG_FORMAT`, else pretty on a terminal. */
  readonly logFormat?: LogFormat;
  /** Environment the service reads its settings from; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Every started service's console, for the shell's navigation; read at each page load. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /** The console's build folder the services serve at `/` (`consoleBuildFolder`); default none. */
  readonly consoleRoot?: string;
}

/** A running service as `triad serve` sees it. */
export interface RunningService {
  readonly url: string;
  /** Lines to print under the URL (docs page, credentials...). */
  readonly notes?: readonly string[];
  close(): Promise<void>;
}

export interface ServiceEntry {
  readonly name: string;
  readonly title: string;
  /** Port when nothing else names one (the service's own default, shown in `--help`). */
  readonly defaultPort: number;
  /** Its area of the web console (apps/console) and the title the navigation shows. */
  readonly console: { readonly area: ConsoleArea; readonly title: string };
  start(options: ServeOptions): Promise<RunningService>;
}

/** Settings `triad serve` passes over a service's own (a subset every service's config has). */
interface ServeSettings {
  host?: string;
  port?: number;
  dataDir?: string;
  demo?: boolean;
  databaseUrl?: string;
  databaseReadUrls?: readonly string[];
  logFormat?: LogFormat;
}

/** What every service's `start...Server` takes and returns, as far as `triad serve` cares. */
type StartServer = (
  overrides: ServeSettings,
  options: {
    env?: Readonly<Record<string, string | undefined>>;
    fallbacks?: ServeSettings;
    consoleLinks?: () => readonly ConsoleLink[];
    consoleRoot?: string;
  },
) => Promise<{ url: string; notes?: readonly string[]; close(): Promise<void> }>;

/**
 * Every service `triad serve` can start, in start order, which is also port order: default ports
 * 8080, 8081, 8082, and with `--port-base N` the ports N, N+1, N+2 (a service added later takes the
 * next one).
 */
export const SERVICES: readonly ServiceEntry[] = [
  // Its demo is a real Erlang node it starts and manages, when Erlang is installed.
  entry('node-manager', 'Node manager', 8080, { area: 'operator', title: 'Nodes and alarms' }, startNodeManagerServer),
  entry('content-api', 'Content API', 8081, { area: 'catalog', title: 'Catalog' }, startContentApiServer),
  entry(
    'templates',
    'Template service',
    8082,
    { area: 'templates', title: 'Templates' },
    async (overrides, options) => {
      const server = await startTemplatesServer(overrides, options);
      return { ...server, notes: [`API docs: ${server.url}/docs`, ...server.notes] };
    },
  ),
];

/** Port of the service at `index` in `SERVICES` under `--port-base base`. */
export function portFromBase(base: number, index: number): number {
  return base + index;
}

function entry(
  name: string,
  title: string,
  defaultPort: number,
  console: ServiceEntry['console'],
  startServer: StartServer,
): ServiceEntry {
  return {
    name,
    title,
    defaultPort,
    console,
    async start(o) {
      const server = await startServer(
        {
          host: o.host,
          dataDir: o.dataDir,
          demo: o.demo,
          ...(o.port !== undefined ? { port: o.port } : {}),
          ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
          ...(o.databaseReadUrls && o.databaseReadUrls.length > 0 ? { databaseReadUrls: o.databaseReadUrls } : {}),
          ...(o.logFormat ? { logFormat: o.logFormat } : {}),
        },
        {
          ...(o.env ? { env: o.env } : {}),
          ...(o.consoleLinks ? { consoleLinks: o.consoleLinks } : {}),
          ...(o.consoleRoot !== undefined ? { consoleRoot: o.consoleRoot } : {}),
          // Below the environment, so TRIAD_*_PORT still moves one service off the derived port.
          ...(o.fallbackPort !== undefined ? { fallbacks: { port: o.fallbackPort } } : {}),
        },
      );
      return { url: server.url, notes: server.notes ?? [], close: () => server.close() };
    },
  };
}
