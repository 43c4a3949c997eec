import { startContentApiServer } from '@triad/content-api-service';
import { startNodeManagerServer } from '@triad/node-manager-service';
import { startTemplatesServer } from '@triad/templates-service';

/** Options every service understands when started by `triad serve`. */
export interface ServeOptions {
  readonly host: string;
  readonly port?: number;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly demo: boolean;
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
  readonly defaultPort: number;
  start(options: ServeOptions): Promise<RunningService>;
}

/**
 * Every service `triad serve` can start, in start order. Default ports: node manager 8080,
 * content API 8081, templates 8082.
 */
export const SERVICES: readonly ServiceEntry[] = [
  // Its demo is a real Erlang node it starts and manages, when Erlang is installed.
  entry('node-manager', 'Node manager', 8080, (overrides) => startNodeManagerServer(overrides)),
  entry('content-api', 'Content API', 8081, startContentApiServer),
  entry('templates', 'Template service', 8082, async (overrides) => {
    const server = await startTemplatesServer(overrides);
    return { ...server, notes: [`API docs: ${server.url}/docs`] };
  }),
];

/** What every service's `start...Server` takes and returns, as far as `triad serve` cares. */
type StartServer = (overrides: {
  host: string;
  port: number;
  dataDir: string;
  demo: boolean;
  databaseUrl?: string;
}) => Promise<{ url: string; notes?: readonly string[]; close(): Promise<void> }>;

function entry(name: string, title: string, defaultPort: number, startServer: StartServer): ServiceEntry {
  return {
    name,
    title,
    defaultPort,
    async start(o) {
      const server = await startServer({
        host: o.host,
        port: o.port ?? defaultPort,
        dataDir: o.dataDir,
        demo: o.demo,
        ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
      });
      return { url: server.url, notes: server.notes ?? [], close: () => server.close() };
    },
  };
}
