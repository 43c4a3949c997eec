import { closeOnce, createLogger, listenService, serviceCloser, type Logger } from '@triad/service-kit';
import { buildContentApiApp } from './app.js';
import { createContentAuth, type ContentAuth } from './auth/content-auth.js';
import { loadContentApiConfig, type ContentApiConfig, type ContentApiConfigOverrides } from './config.js';
import { seedDemoCatalog } from './demo/seed-demo-catalog.js';
import { CONTENT_MEDIA_TYPE } from './http/media-types.js';
import { openContentStore } from './content-store.js';

/** A listening content API. */
export interface RunningContentApiServer {
  /** Base URL, e.g. `http://127.0.0.1:8081`. */
  readonly url: string;
  readonly config: ContentApiConfig;
  /**
   * Lines for the operator: the OAuth client id and secret (the secret only when it was
   * generated) and a ready-to-paste curl command that fetches a token and searches.
   */
  readonly notes: readonly string[];
  /** Stops listening (in-flight requests finish) and closes the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartContentApiServerOptions {
  /** Environment to read; default `process.env` (read in `config.ts`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Settings used where neither `overrides` nor the environment set one (`triad serve --port-base`
   * passes its ports here, so `TRIAD_*_PORT` still wins over them).
   */
  readonly fallbacks?: ContentApiConfigOverrides;
  /** Default: a logger to standard error at the configured level and `logFormat` (unset: pretty on a terminal). */
  readonly logger?: Logger;
  /** Close on SIGINT/SIGTERM and exit the process. Default false (a host such as `triad serve` handles signals). */
  readonly handleSignals?: boolean;
}

/**
 * Loads config (environment, then `overrides`), opens and migrates the database (PostgreSQL when
 * `databaseUrl` is set, else `<dataDir>/content.sqlite`), seeds a generated demo catalog into an
 * empty store when `demo` is on, sets up token verification (built-in identity unless a JWKS is
 * configured) and listens. Prints nothing; returns the URL and the notes to show.
 */
export async function startContentApiServer(
  overrides: ContentApiConfigOverrides = {},
  options: StartContentApiServerOptions = {},
): Promise<RunningContentApiServer> {
  const config = loadContentApiConfig(options.env, overrides, options.fallbacks);
  const logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      format: config.logFormat ?? 'auto',
      stream: 'stderr',
      service: 'content-api',
    });
  const store = await openContentStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: logger });
  const { backend } = store;
  try {
    if (config.demo) {
      const outcome = await seedDemoCatalog(backend, config.demoArticles);
      logger.info(outcome, outcome.status === 'seeded' ? 'demo catalog seeded' : 'catalog present, demo not seeded');
    }
    const auth = await createContentAuth(config);
    logger.info({ keys: auth.source }, 'token verification ready');
    const app = await buildContentApiApp({ config, backend, auth, logger });
    const close = closeOnce(
      () => app.close(),
      () => store.close(),
    );
    const listening = await listenService(app, config.host, config.port);
    const url = config.publicUrl ?? listening;
    return {
      url,
      config,
      notes: operatorNotes(url, auth),
      close: serviceCloser(close, app.log, options.handleSignals ?? false),
    };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}

/** The notes `startContentApiServer` returns; exported for its test. */
export function operatorNotes(url: string, auth: ContentAuth): string[] {
  if (!auth.identity) return [`content API tokens are verified with keys from ${auth.source}`];
  const { clientId, clientSecret, generated } = auth.identity;
  const secret = generated ? clientSecret : '$TRIAD_OAUTH_CLIENT_SECRET';
  return [
    `OAuth client id: ${clientId}`,
    generated
      ? `OAuth client secret: ${clientSecret} ` +
        '(generated; set TRIAD_OAUTH_CLIENT_ID and TRIAD_OAUTH_CLIENT_SECRET to fix them)'
      : 'OAuth client secret: from TRIAD_OAUTH_CLIENT_SECRET',
    `try: TOKEN=$(curl -s ${url}/oauth/token -d grant_type=client_credentials -d client_id=${clientId} ` +
      `-d "client_secret=${secret}" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/') && ` +
      `curl -s "${url}/api/articles?q=pen&limit=3" -H "Authorization: Bearer $TOKEN" ` +
      `-H 'Accept: ${CONTENT_MEDIA_TYPE}' -H 'X-svc-requisitioner-id: demo-user'`,
  ];
}
