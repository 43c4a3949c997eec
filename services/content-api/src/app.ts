import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createServiceApp, type Logger } from '@triad/service-kit';
import type { ContentAuth } from './auth/content-auth.js';
import { createTokenVerifier } from './auth/token-verifier.js';
import type { ContentApiConfig } from './config.js';
import { ContentVersions } from './http/content-version.js';
import { useContentProtocol } from './http/protocol-hooks.js';
import { articlesRoutes } from './routes/articles/index.js';
import { businessShopsRoutes } from './routes/business-shops/index.js';
import { entryRoutes } from './routes/entry/index.js';
import { oauthRoutes } from './routes/oauth/index.js';
import type { SearchBackend } from './search/search-backend.js';

export interface BuildContentApiAppOptions {
  readonly config: ContentApiConfig;
  /** Storage and search over an open, migrated database. The app does not close it. */
  readonly backend: SearchBackend;
  /** Verification keys (and the built-in identity, whose endpoints are then served). */
  readonly auth: ContentAuth;
  readonly logger?: Logger;
}

/**
 * Builds the content API: `/api`, `/api/articles`, `/api/articles/{id}`, the business-shop
 * resources (all behind token, Accept and requisitioner checks), the built-in `/oauth/token` and
 * `/.well-known/jwks.json` when the built-in identity is used, and `/healthz`. Never listens.
 */
export async function buildContentApiApp(options: BuildContentApiAppOptions): Promise<FastifyInstance> {
  const { config, backend, auth } = options;
  const app = await createServiceApp({
    ...(options.logger ? { logger: options.logger } : {}),
    health: { check: async () => void (await backend.currentHash()) },
  });
  if (auth.identity) await app.register(oauthRoutes, { identity: auth.identity, scope: config.requiredScope });
  const verifyToken = createTokenVerifier({
    keys: auth.keys,
    issuer: config.tokenIssuer,
    audience: config.tokenAudience,
    requiredScope: config.requiredScope,
  });
  const versions = new ContentVersions(backend);
  const baseUrl = (request: FastifyRequest) => config.publicUrl ?? `${request.protocol}://${request.host}`;
  await app.register(async (api) => {
    useContentProtocol(api, { verifyToken, errorsBase: config.errorsBase });
    await api.register(entryRoutes, { versions, baseUrl });
    await api.register(articlesRoutes, { prefix: '/api/articles', backend, versions, baseUrl });
    await api.register(businessShopsRoutes, { backend, versions, baseUrl });
  });
  return app;
}
