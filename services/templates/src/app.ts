import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '@triad/db';
import { createServiceApp, type Logger } from '@triad/service-kit';
import type { TemplatesConfig } from './config.js';
import { PatternCache } from './matching/pattern-cache.js';
import { TemplateRepository } from './repositories/template-repository.js';
import { evaluateRoutes } from './routes/evaluate/index.js';
import { matchRoutes } from './routes/match/index.js';
import { templatesRoutes } from './routes/templates/index.js';
import { validateRoutes } from './routes/validate/index.js';

export interface BuildTemplatesAppOptions {
  readonly config: TemplatesConfig;
  /** An open, migrated database. The app does not close it. */
  readonly database: Database;
  readonly logger?: Logger;
  /** Clock for createdAt/updatedAt; default the system clock. */
  readonly now?: () => Date;
}

/** Package version reported in the OpenAPI document. */
const API_VERSION = '0.1.0';

/**
 * Builds the template service (registry, /validate, /match, /healthz, /openapi.json, /docs).
 * Never listens; `server.ts` does.
 */
export async function buildTemplatesApp(options: BuildTemplatesAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    bodyLimit: config.bodyLimit,
    maxJsonDepth: config.maxJsonDepth,
    health: {
      check: async () => {
        await sql`select 1`.execute(database.db);
      },
    },
    beforeRoutes: registerOpenApi,
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

async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Triad template service',
        version: API_VERSION,
        description:
          'Registry of device templates: store, read, list and delete template versions; validate a template; find the templates matching a discovered device. Errors are application/problem+json (RFC 9457).',
      },
      tags: [
        { name: 'templates', description: 'The template registry' },
        { name: 'validation', description: 'Validation without storing' },
        { name: 'matching', description: 'Discovery matching (rangerFilter)' },
        { name: 'health', description: 'Probes' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
