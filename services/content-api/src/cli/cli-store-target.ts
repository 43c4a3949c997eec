import path from 'node:path';
import { loadContentApiConfig } from '../config.js';
import { CONTENT_SQLITE_FILE } from '../content-api-core.js';

/** The content store a CLI command works on, as `openContentApiCore` takes it, and how to name it. */
export interface CliStoreTarget {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** `PostgreSQL` or the SQLite file's path, for messages. */
  readonly where: string;
}

/**
 * The store `triad serve content-api` uses (`TRIAD_DATA_DIR`, `DATABASE_URL` from `env`), with a
 * command's `--data-dir` (relative to `cwd`) and `--database-url` over it.
 *
 * @throws ConfigError when a setting is invalid (its message names every violation).
 */
export function cliStoreTarget(
  env: Readonly<Record<string, string | undefined>> | undefined,
  cwd: string,
  o: { readonly dataDir?: string | undefined; readonly databaseUrl?: string | undefined },
): CliStoreTarget {
  const config = loadContentApiConfig(env, {
    logLevel: 'silent',
    demo: false,
    ...(o.dataDir ? { dataDir: path.resolve(cwd, o.dataDir) } : {}),
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
  });
  const dataDir = path.resolve(cwd, config.dataDir);
  return {
    databaseUrl: config.databaseUrl,
    dataDir,
    where: config.databaseUrl ? 'PostgreSQL' : path.join(dataDir, CONTENT_SQLITE_FILE),
  };
}
