import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { KeyRotationRefused, rotateSecretKey } from '../commands/rotate-secret-key.js';
import { loadNodeManagerConfig } from '../config.js';
import { CookieSealError } from '../secrets/cookie-cipher.js';
import { NODE_MANAGER_SQLITE_FILE, openNodeManagerDatabase } from '../server.js';
import type { UsersCommandIo, UsersCommandOptions } from './users-command.js';

/** Exit codes (docs/cli.md): 1 refused (nothing changed), 2 usage or I/O error. */
const REFUSED = 1;
const USAGE = 2;

interface RotateKeyOptions {
  readonly dataDir?: string;
  readonly databaseUrl?: string;
  readonly newKeyFile?: string;
  readonly force?: boolean;
}

/**
 * `triad node-manager rotate-key`: reseals the stored node cookies with a new key, on a stopped
 * service (SQLite or PostgreSQL; `rotateSecretKey` says how). Prints what it did; failures print
 * `triad node-manager: <what happened>; <what to do>` and exit 1 when refused (the service runs,
 * no new key given with `TRIAD_SECRET_KEY`, a cookie no key opens) or 2 for usage and I/O errors.
 */
export function createNodeManagerCommand(io: UsersCommandIo, options: UsersCommandOptions = {}): Command {
  const command = new Command('node-manager').description('Maintenance of the node manager (stop the service first)');
  command
    .command('rotate-key')
    .description(
      'seal every stored node cookie with a new key: a new random node-manager.key in the data directory, ' +
        'or, when TRIAD_SECRET_KEY is set, the key in --new-key-file (then set TRIAD_SECRET_KEY to it)',
    )
    .option(
      '--data-dir <dir>',
      'directory of node-manager.sqlite and node-manager.key (default: TRIAD_DATA_DIR, else ./data)',
    )
    .option('--database-url <url>', 'PostgreSQL URL instead of SQLite (default: DATABASE_URL)')
    .option('--new-key-file <file>', 'with TRIAD_SECRET_KEY: file holding the new key (64 hex characters or base64)')
    .option('--force', 'rotate although a service run is recorded (only when it was killed on another machine)')
    .action(async (o: RotateKeyOptions) => {
      try {
        const loaded = loadNodeManagerConfig(options.env, {
          logLevel: 'silent',
          ...(o.dataDir ? { dataDir: o.dataDir } : {}),
          ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
        });
        const dataDir = path.resolve(options.cwd ?? process.cwd(), loaded.dataDir);
        const file = path.join(dataDir, NODE_MANAGER_SQLITE_FILE);
        if (loaded.databaseUrl === undefined && !existsSync(file)) {
          io.stderr.write(
            `triad node-manager: no node-manager database at ${file}; point --data-dir (or TRIAD_DATA_DIR) ` +
              'at the data directory of your installation\n',
          );
          io.exitCode = Math.max(io.exitCode, USAGE);
          return;
        }
        const newSecretKey =
          o.newKeyFile === undefined
            ? undefined
            : (await readFile(path.resolve(options.cwd ?? process.cwd(), o.newKeyFile), 'utf8')).trim();
        const database = await openNodeManagerDatabase({ ...loaded, dataDir });
        try {
          const outcome = await rotateSecretKey({
            database,
            dataDir,
            secretKey: loaded.secretKey,
            newSecretKey,
            force: o.force === true,
          });
          if (outcome.staleRuns > 0)
            io.stdout.write(`forgot ${outcome.staleRuns} record(s) of services on this machine that had died\n`);
          io.stdout.write(`resealed ${outcome.resealed} node cookie(s) with the new key\n`);
          io.stdout.write(
            outcome.keySource === 'setting'
              ? 'now set TRIAD_SECRET_KEY to the new key before starting the service; ' +
                  'the old key no longer opens them\n'
              : `the new key is in ${outcome.keySource}; the old key is gone\n`,
          );
        } finally {
          await database.close();
        }
      } catch (error) {
        if (error instanceof KeyRotationRefused || error instanceof CookieSealError) {
          io.stderr.write(`triad node-manager: ${error.message}; nothing was changed\n`);
          io.exitCode = Math.max(io.exitCode, REFUSED);
          return;
        }
        if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E')) {
          io.stderr.write(`triad node-manager: ${error.message}\n`);
          io.exitCode = Math.max(io.exitCode, USAGE);
          return;
        }
        throw error;
      }
    });
  return command;
}
