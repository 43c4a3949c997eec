import {
  closeOnce,
  listenService,
  serviceCloser,
  serviceLogger,
  type Logger,
  type ServiceStartOptions,
} from '@triad/service-kit';
import { buildContentApiApp } from './app.js';
import { createContentAuth, type ContentAuth } from './auth/content-auth.js';
import { SigningKeyRepository } from './repositories/signing-key-repository.js';
import type { LocalAdminClient } from './auth/local-identity.js';
import { loadContentApiConfig, type ContentApiConfig, type ContentApiConfigOverrides } from './config.js';
import { seedDemoCatalog } from './demo/seed-demo-catalog.js';
import { CONTENT_MEDIA_TYPE } from './http/media-types.js';
import { openContentApiCore } from './content-api-core.js';
import { startPriceValidityTimer } from './instances/price-validity-timer.js';
import type { SearchBackend } from './search/search-backend.js';
import { StoreBusyError } from './search/store-busy-error.js';
import { SearchWorkerPool } from './search/workers/search-worker-pool.js';

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

/** How a host starts the service: environment, fallbacks, logger, signal handling. */
export type StartContentApiServerOptions = ServiceStartOptions<ContentApiConfigOverrides>;

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
  const logger = serviceLogger(options.logger, config, 'content-api');
  const store = await openContentApiCore({
    databaseUrl: config.databaseUrl,
    databaseReadUrls: config.databaseReadUrls,
    dataDir: config.dataDir,
    log: logger,
    singleInstance: 'the content API',
  });
  const { backend } = store;
  let stopTimer: (() => Promise<void>) | undefined;
  // Search passes on worker threads sharing the loaded columns (decision 0051), for large catalogs.
  const searchWorkers =
    config.searchThreads > 1
      ? new SearchWorkerPool({
          threads: config.searchThreads,
          fromArticles: config.searchThreadsFrom,
          onRestart: (reason) => logger.warn({ reason }, 'a search worker was started again'),
        })
      : undefined;
  backend.searchOn?.(searchWorkers);
  try {
    if (config.demo) await seedDemo(backend, config.demoArticles, logger);
    // Searches find the catalog loaded, and loaded again after another instance changes it.
    await backend.keepLoaded?.(logger);
    // The search workers start now, not on the first search, when the catalog is large enough for them.
    if (searchWorkers)
      void backend
        .countArticles()
        .then((articles) => searchWorkers.prepare(articles))
        .catch((error: unknown) => logger.warn({ err: error }, 'search workers not started ahead'));
    // Articles kept not searchable become searchable when their price starts (one instance does it).
    const priceTimer = await startPriceValidityTimer({ database: store.database, backend, log: logger });
    stopTimer = () => priceTimer.stop();
    // Instances on one database accept each other's tokens (their public keys are shared there).
    // Nothing here waits for SQLite's write lock: a `triad catalog import` may hold it for minutes.
    const auth = await createContentAuth(config, {
      keyStore: new SigningKeyRepository(store.database),
      log: logger,
    });
    logger.info({ keys: auth.source }, 'token verification ready');
    const app = await buildContentApiApp({
      config,
      backend,
      // Several instances share a PostgreSQL database: one is ready once the others accept its tokens.
      requireSharedKey: store.database.dialect === 'postgres',
      importRuns: store.importRuns,
      auth,
      logger,
      ...(options.consoleLinks ? { consoleLinks: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { consoleRoot: options.consoleRoot } : {}),
    });
    const close = closeOnce(
      () => app.close(),
      () => priceTimer.stop(),
      () => store.close(),
      async () => searchWorkers?.close(),
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
    await stopTimer?.().catch(() => {});
    await store.close().catch(() => {});
    await searchWorkers?.close().catch(() => {});
    throw error;
  }
}

/**
 * Seeds the demo catalog into an empty store, unless an import holds the store (a `triad catalog
 * import` running, or one that crashed while SQLite still held its lock): then the service starts
 * without it and serves what the import commits.
 */
async function seedDemo(backend: SearchBackend, articles: number, logger: Logger): Promise<void> {
  try {
    const outcome = await seedDemoCatalog(backend, articles, {
      maxWaitMs: 0,
      onWait: () => logger.info({}, 'an import is writing the catalog: the demo catalog is not seeded'),
    });
    logger.info(outcome, outcome.status === 'seeded' ? 'demo catalog seeded' : 'catalog present, demo not seeded');
  } catch (error) {
    if (!(error instanceof StoreBusyError)) throw error;
    logger.info({}, "the catalog is served as committed; the import's catalog is served once it commits");
  }
}

/** The notes `startContentApiServer` returns; exported for its test. */
export function operatorNotes(url: string, auth: ContentAuth): string[] {
  if (!auth.identity) return [`content API tokens are verified with keys from ${auth.source}`];
  const { clientId, clientSecret, generated } = auth.identity;
  const secret = generated ? clientSecret : '$TRIAD_OAUTH_CLIENT_SECRET';
  return [
    ...adminNotes(auth.identity.admin),
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

/** The admin client's lines: its id, and its secret only when it was generated (a configured one is never shown). */
function adminNotes(admin: LocalAdminClient | undefined): string[] {
  if (!admin) return [];
  return [
    `admin client id: ${admin.clientId} (scope ${admin.scope}, for /admin/business-shops)`,
    admin.generatedSecret !== undefined
      ? `admin client secret: ${admin.generatedSecret} ` +
        '(generated for this demo run; set TRIAD_CONTENT_ADMIN_CLIENT_ID and ' +
        'TRIAD_CONTENT_ADMIN_CLIENT_SECRET to fix them)'
      : 'admin client secret: from TRIAD_CONTENT_ADMIN_CLIENT_SECRET',
  ];
}
