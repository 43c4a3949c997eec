/**
 * `triad templates tokens add|list|revoke`: the template registry's API tokens, written straight
 * into the service's database (the service need not run). A new token is printed once; only its
 * hash is stored.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { errorMessage } from '@triad/common';
import { openServiceDatabase } from '@triad/db';
import { EXIT, raiseExit, type CliIo } from '@triad/device-templates';
import { loadTemplatesConfig } from '../config.js';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import { TOKEN_SCOPES, type TokenScope } from '../model/token-scope.js';
import { TokenRepository } from '../repositories/token-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { TEMPLATES_SQLITE_FILE } from '../server.js';

export interface TokensCommandOptions {
  readonly env?: NodeJS.ProcessEnv;
}

const scopeOf = (value: string): TokenScope => {
  const scope = TOKEN_SCOPES.find((known) => known === value);
  if (scope === undefined) throw new InvalidArgumentError(`choose one of ${TOKEN_SCOPES.join(', ')}`);
  return scope;
};

/** The scope of a token added without `--scope`. */
const DEFAULT_SCOPE: TokenScope = 'write';

export function createTokensCommand(io: CliIo, options: TokensCommandOptions = {}): Command {
  const command = new Command('tokens')
    .description("Add, list and revoke the template registry's API tokens (works on a stopped or running service)")
    .option('--data-dir <dir>', 'directory of templates.sqlite (default: TRIAD_DATA_DIR, else ./data)')
    .option('--database-url <url>', 'PostgreSQL URL instead of SQLite (default: DATABASE_URL)');

  const run = async (name: string, mustExist: boolean, work: (tokens: TokenRepository) => Promise<void>) => {
    try {
      const globals = command.opts<{ dataDir?: string; databaseUrl?: string }>();
      const config = loadTemplatesConfig(options.env, {
        logLevel: 'silent',
        ...(globals.dataDir ? { dataDir: globals.dataDir } : {}),
        ...(globals.databaseUrl ? { databaseUrl: globals.databaseUrl } : {}),
      });
      const dataDir = path.resolve(io.cwd, config.dataDir);
      const file = path.join(dataDir, TEMPLATES_SQLITE_FILE);
      if (mustExist && config.databaseUrl === undefined && !existsSync(file)) {
        io.stderr.write(
          `triad templates tokens ${name}: no template-service database at ${file}; point --data-dir ` +
            '(or TRIAD_DATA_DIR) at your data directory\n',
        );
        raiseExit(io, EXIT.USAGE);
        return;
      }
      const database = await openServiceDatabase<TemplatesDatabase>({
        databaseUrl: config.databaseUrl,
        dataDir,
        sqliteFile: TEMPLATES_SQLITE_FILE,
        migrations: templatesMigrations,
        tableName: TEMPLATES_MIGRATION_TABLE,
      });
      try {
        await work(new TokenRepository(database));
      } finally {
        await database.close();
      }
    } catch (error) {
      io.stderr.write(`triad templates tokens ${name}: ${errorMessage(error)}\n`);
      raiseExit(io, EXIT.USAGE);
    }
  };

  command
    .command('add')
    .description('create a token and print it once (only its hash is kept)')
    .argument('<name>', 'what the token is for, e.g. "ci-pipeline"')
    .option('--scope <scope>', `${TOKEN_SCOPES.join(', ')}`, scopeOf, DEFAULT_SCOPE)
    .addHelpText(
      'after',
      '\nExample:\n  triad templates tokens add ci --scope write\n' +
        '  curl -H "Authorization: Bearer <token>" -X DELETE http://127.0.0.1:8082/templates/old-switch',
    )
    .action((name: string, o: { scope: TokenScope }) =>
      run('add', false, async (tokens) => {
        const { record, token } = await tokens.create(name, o.scope);
        io.stdout.write(`${token}\n`);
        io.stderr.write(
          `token ${record.id} (${record.name}, scope ${record.scope}) created; it is shown only now, keep it safe\n`,
        );
      }),
    );

  command
    .command('list')
    .description('list the tokens: id, name, scope, created, last used, revoked (never the tokens themselves)')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run('list', true, async (tokens) => {
        const list = await tokens.list();
        const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
        io.stdout.write(
          o.json
            ? `${JSON.stringify(list, null, 2)}\n`
            : list.length === 0
              ? 'no tokens; create one with: triad templates tokens add <name>\n'
              : list
                  .map(
                    (t) =>
                      `${t.id}  ${t.scope.padEnd(5)}  ${t.name}  created ${iso(t.createdAt)}  ` +
                      `last used ${iso(t.lastUsedAt)}` +
                      `${t.revokedAt === null ? '' : `  REVOKED ${iso(t.revokedAt)}`}\n`,
                  )
                  .join(''),
        );
      }),
    );

  command
    .command('revoke')
    .description('revoke a token by id; it stops working at once')
    .argument('<id>', 'the token id (see tokens list)')
    .action((id: string) =>
      run('revoke', true, async (tokens) => {
        if (await tokens.revoke(id)) io.stdout.write(`revoked token ${id}\n`);
        else {
          io.stderr.write(`triad templates tokens revoke: no live token ${id}; see triad templates tokens list\n`);
          raiseExit(io, EXIT.INVALID);
        }
      }),
    );
  return command;
}
