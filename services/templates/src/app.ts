import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '@triad/db';
import {
  createServiceApp,
  PROBLEM_ERROR_BODY,
  type ConsoleLink,
  type Logger,
  type OpenApiOptions,
} from '@triad/service-kit';
import type { TemplatesConfig } from './config.js';
import { PatternCache } from './matching/pattern-cache.js';
import { TemplateRepository } from './repositories/template-repository.js';
import { evaluateRoutes } from './routes/evaluate/index.js';
import { matchRoutes } from './routes/match/index.js';
import { templatesRoutes } from './routes/templates/index.js';
import { validateRoutes } from './routes/validate/index.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';

export interface BuildTemplatesAppOptions {
  readonly config: TemplatesConfig;
  /** An open, migrated database. The app does not close it. */
  readonly database: Database<TemplatesDatabase>;
  readonly logger?: Logger;
  /** Clock for createdAt/updatedAt; default the system clock. */
  readonly now?: () => Date;
  /** Every service's console for the shell's navigation (service-kit `serveConsole`); default none. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
}

/** Package version reported in the OpenAPI document. */
const API_VERSION = '0.1.0';

/** The OpenAPI description of the template service (`/openapi.json`, `/docs`). */
const OPEN_API: OpenApiOptions = {
  title: 'Triad template service',
  version: API_VERSION,
  description:
    'Registry of device templates: store, read, list and delete template versions; validate a template; ' +
    'evaluate datapoint updates with a stored template; find the templates matching a discovered device. ' +
    'No authentication. Errors are application/problem+json (RFC 9457).',
  errorBody: PROBLEM_ERROR_BODY,
  tags: [
    { name: 'templates', description: 'The template registry' },
    { name: 'validation', description: 'Validation without storing' },
    { name: 'matching', description: 'Discovery matching (rangerFilter)' },
    { name: 'health', description: 'Probes and metrics' },
  ],
};

/**
 * Builds the template service (registry, /validate, /match, /healthz, /metrics, /openapi.json, /docs).
 * Never listens; `server.ts` does.
 */
export async function buildTemplatesApp(options: BuildTemplatesAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    bodyLimit: config.bodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    // The registry's own paths: a browser reloading /templates/x must get the API's answer.
    console: {
      home: 'templates',
      apiPrefixes: ['/templates', '/validate', '/match'],
      ...(options.consoleLinks ? { links: options.consoleLinks } : {}),
    },
    health: {
      check: async () => {
        await sql`select 1`.execute(database.db);
      },
    },
    openApi: OPEN_API,
    metrics: {},
  });
  const repository = new TemplateRepository(database, options.now);
  const patterns = new PatternCache({ log: app.log });
  await app.register(templatesRoutes, {
    prefix: '/templates',
    repository,
    sourceBodyLimit: config.sourceBodyLimit,
    maxJsonDepth: config.maxJsonDepth,
  });
  await app.register(validateRoutes, { sourceBodyLimit: config.sourceBodyLimit, maxJsonDepth: config.maxJsonDepth });
  await app.register(matchRoutes, { repository, patterns });
  await app.register(evaluateRoutes, { prefix: '/templates', repository, bodyLimit: config.sourceBodyLimit });
  return app;
}
