import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createServiceApp,
  PROBLEM_ERROR_BODY,
  type ConsoleLink,
  type Logger,
  type OpenApiOptions,
} from '@triad/service-kit';
import type { ContentAuth } from './auth/content-auth.js';
import { createTokenVerifier } from './auth/token-verifier.js';
import type { ContentApiConfig } from './config.js';
import { ContentVersions } from './http/content-version.js';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from './http/media-types.js';
import { useContentProtocol } from './http/protocol-hooks.js';
import { adminShopsRoutes } from './routes/admin-shops/index.js';
import { articlesRoutes } from './routes/articles/index.js';
import { businessShopsRoutes } from './routes/business-shops/index.js';
import { demoClientRoutes, isLoopbackHost } from './routes/demo-client/index.js';
import { entryRoutes } from './routes/entry/index.js';
import { oauthRoutes } from './routes/oauth/index.js';
import { suggestRoutes } from './routes/suggest/index.js';
import { AccessPolicy } from './policies/access-policy.js';
import { SecretThrottle } from './auth/secret-throttle.js';
import { useSchemasAsDocumentation } from './routes/documentation-only-schemas.js';
import { addWireSchemas } from './routes/wire-schemas.js';
import type { ImportRunRepository } from './repositories/import-run-repository.js';
import type { SearchBackend } from './search/search-backend.js';

export interface BuildContentApiAppOptions {
  readonly config: ContentApiConfig;
  /** Storage and search over an open, migrated database. The app does not close it. */
  readonly backend: SearchBackend;
  /**
   * The record of catalog imports (`ContentStorage.importRuns`) the admin API lists; without it
   * the list is empty (an app built only for its OpenAPI document).
   */
  readonly importRuns?: ImportRunRepository;
  /** Verification keys (and the built-in identity, whose endpoints are then served). */
  readonly auth: ContentAuth;
  readonly logger?: Logger;
  /**
   * `/healthz` answers 503 until the built-in identity's public key is in the shared key store
   * (the other instances on the database accept its tokens only then). Default false.
   */
  readonly requireSharedKey?: boolean;
  /** Every service's console for the shell's navigation (service-kit `serveConsole`); default none. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /** The console's build folder (service-kit `serveConsole`); default none: `/` says how to build it. */
  readonly consoleRoot?: string;
}

/** Package version reported in the OpenAPI document. */
const API_VERSION = '0.1.0';

/** The OpenAPI description of the content API (`/openapi.json`, `/docs`). */
function openApiOptions(config: ContentApiConfig): OpenApiOptions {
  return {
    title: 'Triad article content API',
    version: API_VERSION,
    description:
      'Read-only search and detail of product articles and business shops. Every `/api` call needs a ' +
      'bearer JWT (from `POST /oauth/token` when the built-in identity is used), `Accept: ' +
      `${CONTENT_MEDIA_TYPE}\` exactly and an \`${REQUISITIONER_HEADER}\` header. ` +
      'Errors are application/problem+json (RFC 9457).',
    errorBody: PROBLEM_ERROR_BODY,
    serverUrl: config.publicUrl,
    tags: [
      { name: 'entry', description: 'The entry point' },
      { name: 'articles', description: 'Article search and detail' },
      { name: 'business-shops', description: 'Business shops and their terms' },
      { name: 'identity', description: 'Built-in token issuer (when no external identity provider is set)' },
      { name: 'admin', description: "Managing business shops (Triad's addition; needs the admin scope)" },
      { name: 'health', description: 'Probes and metrics' },
    ],
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          `A JWT with the scope ${config.requiredScope} (${config.adminScope} for /admin), ` +
          `issuer ${config.tokenIssuer}`,
      },
    },
    security: [{ bearer: [] }],
  };
}

/**
 * Builds the content API: `/api`, `/api/articles`, `/api/articles/{id}`, the business-shop
 * resources (all behind token, Accept and requisitioner checks), the built-in `/oauth/token` and
 * `/.well-known/jwks.json` when the built-in identity is used, `/healthz`, `/metrics`,
 * `/openapi.json` and `/docs`. Never listens.
 */
export async function buildContentApiApp(options: BuildContentApiAppOptions): Promise<FastifyInstance> {
  const { config, backend, auth } = options;
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    // Timeouts and the per-client connection limit (TRIAD_*_TIMEOUT_MS, TRIAD_MAX_CONNECTIONS_PER_CLIENT).
    connections: config,
    health: {
      check: async () => {
        await backend.currentHash();
        if (options.requireSharedKey && auth.identity && !auth.identity.keyShared())
          throw new Error("this instance's token key is not in the database yet: other instances refuse its tokens");
      },
    },
    console: {
      home: 'catalog',
      ...(options.consoleLinks ? { links: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { root: options.consoleRoot } : {}),
    },
    openApi: openApiOptions(config),
    metrics: {},
  });
  addWireSchemas(app);
  if (auth.identity) {
    const { identity } = auth;
    const throttle = new SecretThrottle({
      burst: config.tokenFailureBurst,
      windowSeconds: config.tokenFailureWindowSeconds,
    });
    await app.register(oauthRoutes, { identity, throttle });
    // The console's sign-in form is filled in only on a demo run's own machine (docs/console.md).
    const local = identity.generated && config.demo && isLoopbackHost(config.host);
    await app.register(demoClientRoutes, { client: local ? identity : undefined });
  }
  const access = new AccessPolicy({
    verifyToken: createTokenVerifier({ keys: auth.keys, issuer: config.tokenIssuer, audience: config.tokenAudience }),
    requiredScope: config.requiredScope,
    adminScope: config.adminScope,
  });
  const versions = new ContentVersions(backend);
  const baseUrl = (request: FastifyRequest) => config.publicUrl ?? `${request.protocol}://${request.host}`;
  await app.register(async (api) => {
    useContentProtocol(api, { access, errorsBase: config.errorsBase });
    useSchemasAsDocumentation(api);
    await api.register(entryRoutes, { versions, baseUrl });
    await api.register(articlesRoutes, { prefix: '/api/articles', backend, versions, baseUrl });
    await api.register(businessShopsRoutes, { backend, versions, baseUrl });
    await api.register(suggestRoutes, { versions });
  });
  await app.register(adminShopsRoutes, {
    backend,
    access,
    ...(options.importRuns ? { importRuns: options.importRuns } : {}),
  });
  return app;
}
