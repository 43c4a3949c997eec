import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { newInstanceId, type Database } from '@triad/db';
import type { DriverRegistry } from '@triad/device-drivers';
import {
  createServiceApp,
  PROBLEM_ERROR_BODY,
  type ConsoleLink,
  type Logger,
  type OpenApiOptions,
  type SecretCipher,
} from '@triad/service-kit';
import type { TemplatesConfig } from './config.js';
import { DEMO_DEVICE, seedDemoDevice } from './demo/seed-demo-device.js';
import { accessHook } from './http/access-hook.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';
import { devicesRoutes } from './routes/devices/index.js';
import { evaluateRoutes } from './routes/evaluate/index.js';
import { matchRoutes } from './routes/match/index.js';
import { metricsRoutes } from './routes/metrics/index.js';
import { templatesRoutes } from './routes/templates/index.js';
import { validateRoutes } from './routes/validate/index.js';
import { createTemplatesCore } from './templates-core.js';

export interface BuildTemplatesAppOptions {
  readonly config: TemplatesConfig;
  /** An open, migrated database. The app does not close it. */
  readonly database: Database<TemplatesDatabase>;
  readonly logger?: Logger;
  /** Clock for createdAt/updatedAt; default the system clock. */
  readonly now?: () => Date;
  /** Every service's console for the shell's navigation (service-kit `serveConsole`); default none. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /** The console's build folder (service-kit `serveConsole`); default none: `/` says how to build it. */
  readonly consoleRoot?: string;
  /** Seals device credentials; default a random key held in memory (tests). */
  readonly cipher?: SecretCipher;
  /** Device drivers; default every driver Triad ships. */
  readonly registry?: DriverRegistry;
  /** This instance's id (`/healthz`, work leases); default `config.instanceId`, else `newInstanceId()`. */
  readonly instanceId?: string;
}

/** The registry's own paths (the console never takes them; the access policy guards them). */
const API_PREFIXES = ['/templates', '/validate', '/match', '/devices'];

/** Package version reported in the OpenAPI document. */
const API_VERSION = '0.1.0';

/** The OpenAPI description of the template service (`/openapi.json`, `/docs`). */
const OPEN_API: OpenApiOptions = {
  title: 'Triad template service',
  version: API_VERSION,
  description:
    'Registry of device templates: store, read, list and delete template versions; validate a template; ' +
    'evaluate datapoint updates with a stored template; find the templates matching a discovered device. ' +
    'Registry reads are open unless TRIAD_TEMPLATES_READ_ACCESS=token; device reads need a token of scope read ' +
    'or more unless TRIAD_DEVICES_READ_ACCESS=open. Writes (templates, versions, deletes, devices) ' +
    'need `Authorization: Bearer <token>`: an API token of scope write or admin (`triad templates tokens add`), ' +
    'unless TRIAD_TEMPLATES_WRITE_ACCESS=open. Errors are application/problem+json (RFC 9457).',
  errorBody: PROBLEM_ERROR_BODY,
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', description: 'an API token (triad templates tokens add)' },
  },
  tags: [
    { name: 'templates', description: 'The template registry' },
    { name: 'validation', description: 'Validation without storing' },
    { name: 'matching', description: 'Discovery matching (rangerFilter)' },
    { name: 'devices', description: 'Devices collected with a template version (SNMP, ICMP, Modbus-TCP, MQTT)' },
    { name: 'health', description: 'Probes and metrics' },
  ],
};

/**
 * Builds the template service (registry, /validate, /match, /healthz, /metrics, /openapi.json, /docs).
 * Never listens; `server.ts` does.
 */
export async function buildTemplatesApp(options: BuildTemplatesAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const instanceId = options.instanceId ?? config.instanceId ?? newInstanceId();
  // The collection needs the app's logger, so it comes after the app.
  let devicesOwned = (): number => 0;
  let serviceMetrics: () => Promise<string> = () => Promise.resolve('');
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    // Timeouts and the per-client connection limit (TRIAD_*_TIMEOUT_MS, TRIAD_MAX_CONNECTIONS_PER_CLIENT).
    connections: config,
    bodyLimit: config.bodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    // The registry's own paths: a browser reloading /templates/x must get the API's answer.
    console: {
      home: 'templates',
      apiPrefixes: API_PREFIXES,
      ...(options.consoleLinks ? { links: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { root: options.consoleRoot } : {}),
    },
    health: {
      check: async () => {
        await sql`select 1`.execute(database.db);
      },
      // Which instance answers, and how many devices it collects (holds the lease of).
      fields: {
        schema: { instance: { type: 'string' }, devicesOwned: { type: 'integer', minimum: 0 } },
        values: () => ({ instance: instanceId, devicesOwned: devicesOwned() }),
      },
    },
    openApi: OPEN_API,
    // The process and HTTP metrics join the device values at `/metrics` (routes/metrics).
    metrics: { path: false, exportTo: (render) => (serviceMetrics = render) },
  });
  const core = createTemplatesCore({
    config,
    database,
    instanceId,
    log: app.log,
    app,
    ...(options.now ? { now: options.now } : {}),
    ...(options.consoleLinks ? { consoleLinks: options.consoleLinks } : {}),
    ...(options.cipher ? { cipher: options.cipher } : {}),
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const { templates: repository, access, patterns, registry, devices, collection, deviceCommands: commands } = core;
  const { oidNames } = core;
  app.addHook('onRequest', accessHook(access, API_PREFIXES));
  await app.register(templatesRoutes, {
    prefix: '/templates',
    repository,
    sourceBodyLimit: config.sourceBodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    oidNames,
  });
  await app.register(validateRoutes, {
    sourceBodyLimit: config.sourceBodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    oidNames,
  });
  await app.register(matchRoutes, { repository, patterns });
  await app.register(evaluateRoutes, { prefix: '/templates', repository, bodyLimit: config.sourceBodyLimit });
  devicesOwned = () => collection.devicesOwned;
  await app.register(devicesRoutes, {
    prefix: '/devices',
    commands,
    devices,
    collection,
    registry,
    templates: repository,
    patterns,
    access,
    history: core.history,
    historyRawRetentionMs: config.historyRawRetentionMs,
    opcuaKeyPair: () => core.opcuaCertificates.keyPair(),
  });
  await app.register(metricsRoutes, {
    serviceMetrics: () => serviceMetrics(),
    devices: () => collection.supervisor.running(),
    history: () => core.historyWriter?.stats,
    snmpTraps: () => core.snmpTraps?.stats,
    maxSeries: config.metricsMaxSeries,
    access,
  });
  app.addHook('onReady', async () => {
    await collection.start();
    if (config.demo && (await seedDemoDevice(devices, repository, commands)))
      app.log.info({ device: DEMO_DEVICE.name }, 'demo device added');
  });
  // The collectors stop first, so the values they still hand over are written too.
  app.addHook('preClose', async () => {
    await collection.stop();
    await core.snmpTraps?.close();
    await core.historyWriter?.close();
  });
  return app;
}
