import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '@triad/db';
import {
  createServiceApp,
  REASON_ERROR_BODY,
  useJsonBodyParser,
  type ConsoleLink,
  type Logger,
} from '@triad/service-kit';
import type { NodeManagerConfig } from './config.js';
import type { NodeConnector } from './connections/node-connector.js';
import { useApiErrorShape } from './http/api-error-handler.js';
import { useAuthentication } from './http/auth-hook.js';
import { useBodilessDelete } from './http/bodiless-delete.js';
import { useStrictInputValidation } from './http/strict-input-validation.js';
import { useDocumentingResponseSchemas } from './http/documenting-response-schemas.js';
import { createNodeManagerCore, type NodeManagerCore } from './node-manager-core.js';
import type { NodeManagerDatabase } from './repositories/node-manager-tables.js';
import type { CookieCipher } from './secrets/cookie-cipher.js';
import { alarmRoutes } from './routes/alarms/index.js';
import { bookmarkRoutes } from './routes/bookmarks/index.js';
import { clusterDiscoveryRoutes } from './routes/cluster-discovery/index.js';
import { liveRoutes } from './routes/live/index.js';
import { logRoutes } from './routes/logs/index.js';
import { metricHistoryRoutes } from './routes/metric-history/index.js';
import { metricsRoutes } from './routes/metrics/index.js';
import { pluginRoutes } from './routes/plugins/index.js';
import { tagRoutes } from './routes/tags/index.js';
import { topologyRoutes } from './routes/topology/index.js';
import { explorerRoutes } from './routes/explorer/index.js';
import { serviceRoutes } from './routes/services/index.js';
import { usersRoutes } from './routes/users/index.js';
import { notificationRoutes } from './routes/notifications/index.js';

export interface BuildNodeManagerAppOptions {
  readonly config: NodeManagerConfig;
  /** An open, migrated database. The app does not close it. */
  readonly database: Database<NodeManagerDatabase>;
  readonly logger?: Logger;
  /** Default `BasicNodeConnector` (no Erlang). Ignored when `core` is given. */
  readonly connector?: NodeConnector;
  /** A core built by the caller (to reach the internal API); default one over `database`. */
  readonly core?: NodeManagerCore;
  /** Seals node cookies at rest; ignored when `core` is given. Default: a random in-memory key (tests only). */
  readonly cookies?: CookieCipher;
  /** Every service's console for the shell's navigation (service-kit `serveConsole`); default none. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /** The console's build folder (service-kit `serveConsole`); default none: `/` says how to build it. */
  readonly consoleRoot?: string;
  /** This instance's id among several on one database; ignored when `core` is given. */
  readonly instanceId?: string;
  /**
   * What start-up still does before the service is ready (e.g. `creating the admin user`), or
   * undefined once done: `/healthz` answers 503 `unavailable` while it returns a text. Default: nothing.
   */
  readonly pending?: () => string | undefined;
  /**
   * Whether self-registration's name is registered with EPMD now, shown by `/healthz` as
   * `epmdRegistration` (without changing its status: the API works, only new nodes cannot find us).
   * Default: `off`.
   */
  readonly epmdRegistration?: () => EpmdRegistrationState;
  /** See `CreateNodeManagerCoreOptions.sharedListCacheMs`; ignored when `core` is given. */
  readonly sharedListCacheMs?: number;
}

/** Self-registration's standing with EPMD: off, registered, or dropped and registering again. */
export type EpmdRegistrationState = 'off' | 'registered' | 'reregistering';

/** A built app plus its core (internal alarm API, node state updates). */
export interface NodeManagerApp {
  readonly app: FastifyInstance;
  readonly core: NodeManagerCore;
}

const API_VERSION = '0.1.0';

/**
 * Builds the node manager: every `/api` endpoint of the node-management spec (errors as
 * `{error: reason}`, HTTP Basic when authentication is on), `/api/core/ws` live updates,
 * `/healthz` (`{status, instance, nodesOwned}`), `/openapi.json` and `/docs`. Never listens; does
 * not create the admin user (`startNodeManagerServer` does).
 */
export async function buildNodeManagerApp(options: BuildNodeManagerAppOptions): Promise<NodeManagerApp> {
  const { config, database } = options;
  const core =
    options.core ??
    createNodeManagerCore({
      config,
      database,
      ...(options.connector ? { connector: options.connector } : {}),
      ...(options.cookies ? { cookies: options.cookies } : {}),
      ...(options.instanceId ? { instanceId: options.instanceId } : {}),
      ...(options.sharedListCacheMs === undefined ? {} : { sharedListCacheMs: options.sharedListCacheMs }),
      ...(options.logger ? { log: options.logger } : {}),
    });
  // The service's own process and HTTP metrics join the nodes' at `/metrics` (routes/metrics).
  let serviceMetrics: () => Promise<string> = () => Promise.resolve('');
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    // Timeouts and the per-client connection limit (TRIAD_*_TIMEOUT_MS, TRIAD_MAX_CONNECTIONS_PER_CLIENT).
    connections: config,
    metrics: { path: false, exportTo: (render) => (serviceMetrics = render) },
    bodyLimit: config.bodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    // WombatOAM's clients write some paths with a trailing slash (`/api/request/service_request/`).
    ignoreTrailingSlash: true,
    console: {
      home: 'operator',
      // The console shows its sign-in form only when there is something to sign in to.
      settings: { authentication: core.authenticator.enabled },
      ...(options.consoleLinks ? { links: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { root: options.consoleRoot } : {}),
    },
    health: {
      check: async () => {
        const pending = options.pending?.();
        if (pending !== undefined) throw new StillStarting(pending);
        await sql`select 1`.execute(database.db);
      },
      // Which of several instances answers, and how many nodes it monitors (docs/decisions/0027).
      fields: {
        schema: {
          instance: { type: 'string' },
          nodesOwned: { type: 'integer', minimum: 0 },
          epmdRegistration: { type: 'string', enum: ['off', 'registered', 'reregistering'] },
        },
        values: () => ({
          instance: core.ownership.instanceId,
          nodesOwned: core.ownership.ownedCount,
          epmdRegistration: options.epmdRegistration?.() ?? 'off',
        }),
      },
    },
    openApi: {
      title: 'Triad node manager',
      version: API_VERSION,
      description:
        'Nodes, node families, alarms, plugins, bookmarks, users and tags. With authentication on, every /api ' +
        'call and /metrics need HTTP Basic credentials. Failures answer {"error": reason} (docs/errors.md).',
      errorBody: REASON_ERROR_BODY,
      tags: [
        { name: 'users', description: 'Users, roles, rights and the WebSocket pass' },
        { name: 'alarms', description: 'Alarm lists, sources and actions' },
        { name: 'topology', description: 'Nodes, node families, reachability and statistics' },
        { name: 'plugins', description: 'Plugins of a node, switched on and off' },
        { name: 'bookmarks', description: 'Bookmarks' },
        { name: 'tags', description: "Known tags and the tags filtering each user's view" },
        { name: 'live', description: 'Live alarm and node state updates over a WebSocket' },
        { name: 'logs', description: 'Log entries collected from nodes (Triad)' },
        { name: 'explorer', description: "A node's processes and ETS tables, read on demand (Triad)" },
        { name: 'notifications', description: 'Alarm notifications: channels, subscriptions, deliveries (Triad)' },
        { name: 'metrics', description: 'Metrics of managed nodes and of the service: Prometheus text and history' },
        { name: 'health', description: 'Probes' },
      ],
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      security: [{ basic: [] }],
    },
  });
  // Root level, so tests reach `app.injectWS`; frames are tiny (the auth line).
  await app.register(websocket, { options: { maxPayload: 4096 } });
  await app.register(
    async (api) => {
      useJsonBodyParser(api, { maxDepth: config.maxJsonDepth });
      useBodilessDelete(api);
      useStrictInputValidation(api);
      useDocumentingResponseSchemas(api);
      useApiErrorShape(api);
      useAuthentication(api, core.authenticator);
      await api.register(usersRoutes, { prefix: '/users', core });
      await api.register(alarmRoutes, { core });
      await api.register(topologyRoutes, { prefix: '/topo', core });
      await api.register(clusterDiscoveryRoutes, { prefix: '/topo', core });
      await api.register(pluginRoutes, { prefix: '/plugins', core });
      await api.register(bookmarkRoutes, { prefix: '/bookmark', core });
      await api.register(tagRoutes, { prefix: '/tags', core });
      await api.register(liveRoutes, { core });
      await api.register(logRoutes, { prefix: '/logs', core });
      await api.register(metricHistoryRoutes, { prefix: '/metrics', core });
      await api.register(explorerRoutes, { prefix: '/explorer', core });
      await api.register(serviceRoutes, { core });
      await api.register(notificationRoutes, { prefix: '/notifications', core });
    },
    { prefix: '/api' },
  );
  await app.register(metricsRoutes, { prefix: '/metrics', core, serviceMetrics: () => serviceMetrics() });
  return { app, core };
}

/** `/healthz` while start-up work remains: logged as one line (what is left), without a stack. */
class StillStarting extends Error {
  override readonly name = 'StillStarting';
  constructor(what: string) {
    super(`still starting: ${what}`);
    this.stack = `${this.name}: ${this.message}`;
  }
}
