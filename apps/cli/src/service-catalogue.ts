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
  {
    name: 'node-manager',
    title: 'Node manager',
    defaultPort: 8080,
    async start(o) {
      const server = await startNodeManagerServer({
        host: o.host,
        port: o.port ?? 8080,
        dataDir: o.dataDir,
        ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
      });
      return { url: server.url, notes: server.notes, close: () => server.close() };
    },
  },
  {
    name: 'content-api',
    title: 'Content API',
    defaultPort: 8081,
    async start(o) {
      const server = await startContentApiServer({
        host: o.host,
        port: o.port ?? 8081,
        dataDir: o.dataDir,
        demo: o.demo,
        ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
      });
      return { url: server.url, notes: server.notes, close: () => server.close() };
    },
  },
  {
    name: 'templates',
    title: 'Template service',
    defaultPort: 8082,
    async start(o) {
      const server = await startTemplatesServer({
        host: o.host,
        port: o.port ?? 8082,
        dataDir: o.dataDir,
        demo: o.demo,
        ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
      });
      return { url: server.url, notes: [`API docs: ${server.url}/docs`], close: () => server.close() };
    },
  },
];
