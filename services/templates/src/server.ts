import { openServiceDatabase, SecretKeyCheckTable, type Database } from '@triad/db';
import {
  closeOnce,
  listenService,
  loadSecretKeys,
  ProblemError,
  serviceCloser,
  serviceLogger,
  type Logger,
  type ServiceStartOptions,
  verifySecretKey,
} from '@triad/service-kit';
import { buildTemplatesApp } from './app.js';
import { loadTemplatesConfig, type TemplatesConfig, type TemplatesConfigOverrides } from './config.js';
import { defaultExamplesDirectory, seedExampleTemplates } from './demo/seed-example-templates.js';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from './migrations/index.js';
import { TemplateRepository } from './repositories/template-repository.js';
import { TokenRepository } from './repositories/token-repository.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';
import { DEVICE_SECRET } from './devices/device-secrets.js';
import { AccessPolicy } from './policies/access-policy.js';

/** Key file of device credentials in the data directory when `TRIAD_SECRET_KEY` is not set. */
export const TEMPLATES_SECRET_KEY_FILE = 'templates.key';

/** A listening template service. */
export interface RunningTemplatesServer {
  /** Base URL, e.g. `http://127.0.0.1:8082`. */
  readonly url: string;
  readonly config: TemplatesConfig;
  /** Lines `triad serve` prints under the URL: the demo write token, when one was made. */
  readonly notes: readonly string[];
  /** Stops listening (in-flight requests finish) and closes the database. Idempotent. */
  close(): Promise<void>;
}

/** How a host starts the service: environment, fallbacks, logger, signal handling. */
export type StartTemplatesServerOptions = ServiceStartOptions<TemplatesConfigOverrides>;

/** SQLite file of the service inside the data directory. */
export const TEMPLATES_SQLITE_FILE = 'templates.sqlite';

/**
 * Loads config (environment, then `overrides`), opens and migrates the database (PostgreSQL when
 * `databaseUrl` is set, else `<dataDir>/templates.sqlite`), seeds the example templates when the
 * store is empty and `demo` is on, checks that the admin token and the demo write token pass the
 * access check (`checkCredentials`), and only then listens, so `/healthz` never answers 200 while a
 * configured token is refused. Prints nothing; returns the URL.
 */
export async function startTemplatesServer(
  overrides: TemplatesConfigOverrides = {},
  options: StartTemplatesServerOptions = {},
): Promise<RunningTemplatesServer> {
  const config = loadTemplatesConfig(options.env, overrides, options.fallbacks);
  const logger = serviceLogger(options.logger, config, 'templates');
  const database = await openServiceDatabase<TemplatesDatabase>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteFile: TEMPLATES_SQLITE_FILE,
    migrations: templatesMigrations,
    tableName: TEMPLATES_MIGRATION_TABLE,
    singleInstance: 'the template service',
    log: logger,
  });
  try {
    if (config.demo) await seedWhenEmpty(database, config, logger);
    const keys = await loadSecretKeys({
      secretKey: config.secretKey,
      dataDir: config.dataDir,
      keyFile: TEMPLATES_SECRET_KEY_FILE,
      purpose: DEVICE_SECRET,
    });
    // Before any device secret is opened or sealed: another key than the database's refuses the start.
    await verifySecretKey(keys.cipher, new SecretKeyCheckTable(database, 'templates_secret_key_checks'), {
      setting: `TRIAD_SECRET_KEY (or ${TEMPLATES_SECRET_KEY_FILE} in the data directory)`,
    });
    const app = await buildTemplatesApp({
      config,
      database,
      logger,
      cipher: keys.cipher,
      ...(options.consoleLinks ? { consoleLinks: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { consoleRoot: options.consoleRoot } : {}),
    });
    const close = closeOnce(
      () => app.close(),
      () => database.close(),
    );
    const notes: string[] = [];
    const credentials: ConfiguredCredential[] = [];
    if (config.adminToken) credentials.push({ name: 'TRIAD_TEMPLATES_ADMIN_TOKEN', token: config.adminToken });
    // The demo token also reads devices, which need a token by default (TRIAD_DEVICES_READ_ACCESS).
    if (config.demo && (config.writeAccess === 'token' || config.devicesReadAccess === 'token')) {
      const token = await demoWriteToken(new TokenRepository(database));
      credentials.push({ name: 'the demo write token', token });
      notes.push(`write token (demo, new at each start; also reads devices): ${token}`);
      notes.push('  send it as "Authorization: Bearer <token>"; make lasting ones with: triad templates tokens add');
    }
    // Ready means ready (issue 23): every configured token passes the service's own access check
    // before the port opens, so the first /healthz 200 is never followed by a 401 for them.
    await app.ready();
    await checkCredentials(new AccessPolicy({ ...config, tokens: new TokenRepository(database) }), credentials, logger);
    const url = await listenService(app, config.host, config.port);
    return {
      url,
      config,
      notes,
      close: serviceCloser(close, app.log, options.handleSignals ?? false),
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

async function seedWhenEmpty(
  database: Database<TemplatesDatabase>,
  config: TemplatesConfig,
  logger: Logger,
): Promise<void> {
  const repository = new TemplateRepository(database);
  if ((await repository.count()) > 0) return;
  const directory = config.seedDir ?? defaultExamplesDirectory();
  if (!directory) {
    logger.info('no example templates found to seed');
    return;
  }
  const outcomes = await seedExampleTemplates(repository, directory);
  for (const o of outcomes.filter((x) => x.status === 'invalid' || x.status === 'failed')) {
    logger.warn({ file: o.file, reason: o.reason }, 'example template not seeded');
  }
  logger.info(
    { directory, seeded: outcomes.filter((o) => o.status === 'seeded').length, files: outcomes.length },
    'demo templates seeded',
  );
}

/** Name of the token `npm start` makes for the demo; the one of the previous start is revoked. */
export const DEMO_TOKEN_NAME = 'demo (triad serve)';

async function demoWriteToken(tokens: TokenRepository): Promise<string> {
  for (const old of await tokens.list())
    if (old.name === DEMO_TOKEN_NAME && old.revokedAt === null) await tokens.revoke(old.id);
  return (await tokens.create(DEMO_TOKEN_NAME, 'write')).token;
}

/** A bearer token the service is configured or seeded with, and how a person names it. */
interface ConfiguredCredential {
  readonly name: string;
  readonly token: string;
}

/** How long start-up retries a token that is refused or whose check is busy, ms. */
const CREDENTIAL_CHECK_BUDGET_MS = 30_000; // 30 s
const CREDENTIAL_CHECK_PAUSE_MS = 100;

/**
 * Checks each credential with the service's own access policy (the same database, the same
 * checks as a request), retrying while its check is busy or it is refused, and resolves once every
 * one grants at least `write`.
 *
 * @throws Error naming the credential when it is still refused after 30 s: the service does not start.
 */
async function checkCredentials(
  policy: AccessPolicy,
  credentials: readonly ConfiguredCredential[],
  logger: Logger,
): Promise<void> {
  for (const credential of credentials) {
    const deadline = Date.now() + CREDENTIAL_CHECK_BUDGET_MS;
    for (;;) {
      let outcome: string;
      try {
        const scope = await policy.scopeOf(credential.token);
        if (scope === 'write' || scope === 'admin') break;
        outcome = scope === undefined ? 'unknown or revoked' : `scope ${scope}`;
      } catch (error) {
        if (!(error instanceof ProblemError) || error.status !== 503) throw error;
        outcome = 'token checks busy';
      }
      if (Date.now() > deadline)
        throw new Error(
          `${credential.name} is refused by the service's own access check (${outcome}); ` +
            'check the token and the database, then start again',
        );
      logger.info({ credential: credential.name, outcome }, 'waiting for a credential to work');
      await new Promise((resolve) => setTimeout(resolve, CREDENTIAL_CHECK_PAUSE_MS));
    }
  }
}
