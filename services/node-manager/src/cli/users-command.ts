import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { ProblemError } from '@triad/service-kit';
import { PasswordHasher } from '../auth/password-hasher.js';
import { isRole, MIN_PASSWORD_LENGTH, ROLES, USERNAME_PATTERN, type Role } from '../model/roles.js';
import { UserCommands } from '../commands/user-commands.js';
import { loadNodeManagerConfig, parseTagSetting, type NodeManagerConfig } from '../config.js';
import { UserRepository } from '../repositories/user-repository.js';
import { NODE_MANAGER_SQLITE_FILE, openNodeManagerDatabase } from '../server.js';
import { PasswordInputError, processPasswordSource, readPassword, type PasswordSource } from './read-password.js';

/** The output and exit-code part of the CLI's io object. */
export interface UsersCommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  exitCode: number;
}

export interface UsersCommandOptions {
  /** Environment for the config (database location); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where a password left off the command line is read; default the process's terminal or stdin. */
  readonly passwords?: PasswordSource;
  /** Directory a relative `--data-dir` starts from; default the process's working directory. */
  readonly cwd?: string;
}

/** Shortest password `triad users` accepts: the one minimum of the API, the CLI and the admin setting. */
export const MIN_CLI_PASSWORD_LENGTH = MIN_PASSWORD_LENGTH;

/** Exit codes of `triad users` (docs/cli.md): 1 the change was refused, 2 usage or I/O error. */
const REFUSED = 1;
const USAGE = 2;

const VISIBLE_PASSWORD_NOTE =
  'triad users: note: a password on the command line is visible to other users of this machine ' +
  '(ps, shell history); leave it out to be prompted, or pipe it on standard input\n';

const USERNAME_RULE = 'a username is 1 to 64 letters and digits (a-z, A-Z, 0-9)';

/** A failure to report as `triad users: <message>` with an exit code. */
class UsersCliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * `triad users add|set-password|set-role|list`: admin tasks on the node manager's database,
 * working whether the service runs or not (they open the same database; a running service sees
 * the change within its `userRecheckMs`, 1 s by default). Failures print `triad users: <what
 * happened>; <what to do>` and exit 1 when the change was refused (user exists, no such user, last
 * admin, password prompt problems) or 2 for usage and I/O errors (bad name, role or password, no
 * database where one must exist). Only `add` creates a database that is not there yet.
 */
export function createUsersCommand(io: UsersCommandIo, options: UsersCommandOptions = {}): Command {
  const command = new Command('users').description('Manage node-manager users (works on a stopped or running service)');
  command
    .option('--data-dir <dir>', 'directory of node-manager.sqlite (default: TRIAD_DATA_DIR, else ./data)')
    .option('--database-url <url>', 'PostgreSQL URL instead of SQLite (default: DATABASE_URL)');

  /** The password argument, or one read from the terminal or standard input; at least 8 characters. */
  const passwordOf = async (given: string | undefined): Promise<string> => {
    if (given !== undefined) io.stderr.write(VISIBLE_PASSWORD_NOTE);
    const password = given ?? (await readPassword(options.passwords ?? processPasswordSource()));
    if (password.length < MIN_CLI_PASSWORD_LENGTH) {
      throw new UsersCliError(
        `the password is too short (${password.length} characters); ` +
          `use ${MIN_CLI_PASSWORD_LENGTH} to 128 letters and digits`,
        USAGE,
      );
    }
    return password;
  };

  const configOf = (): NodeManagerConfig => {
    const globals = command.opts<{ dataDir?: string; databaseUrl?: string }>();
    const config = loadNodeManagerConfig(options.env, {
      logLevel: 'silent',
      ...(globals.dataDir ? { dataDir: globals.dataDir } : {}),
      ...(globals.databaseUrl ? { databaseUrl: globals.databaseUrl } : {}),
    });
    return { ...config, dataDir: path.resolve(options.cwd ?? process.cwd(), config.dataDir) };
  };

  /** Runs `work` on the database; `mustExist`: a missing SQLite file is an error, not created. */
  const run = async (mustExist: boolean, work: (users: UserCommands) => Promise<void>) => {
    try {
      const config = configOf();
      const file = path.join(config.dataDir, NODE_MANAGER_SQLITE_FILE);
      if (mustExist && config.databaseUrl === undefined && !existsSync(file)) {
        throw new UsersCliError(
          `no node-manager database at ${file}; point --data-dir (or TRIAD_DATA_DIR) at the data directory ` +
            'of your installation, or create one with `triad serve` or `triad users add <name>`',
          USAGE,
        );
      }
      const database = await openNodeManagerDatabase(config);
      try {
        await work(
          new UserCommands(
            new UserRepository(database),
            new PasswordHasher(config.scryptCost),
            parseTagSetting(config.defaultUserTags),
          ),
        );
      } finally {
        await database.close();
      }
    } catch (error) {
      const failure = explain(error);
      if (!failure) throw error;
      io.stderr.write(`triad users: ${failure.message}\n`);
      io.exitCode = Math.max(io.exitCode, failure.exitCode);
    }
  };

  command
    .command('add <username> [password]')
    .description('add a user (letters and digits); without [password] it is asked for, or read from standard input')
    .option('--role <role>', ROLES.join(', '), 'user')
    .action((username: string, password: string | undefined, o: { role: string }) =>
      run(false, async (users) => {
        const role = roleOf(o.role);
        await users.addUser(usernameOf(username), await passwordOf(password), role);
        io.stdout.write(`added ${username} (${role})\n`);
      }),
    );
  command
    .command('set-password <username> [password]')
    .description("change a user's password; without [password] it is asked for, or read from standard input")
    .action((username: string, password: string | undefined) =>
      run(true, async (users) => {
        await users.changePassword(usernameOf(username), await passwordOf(password));
        io.stdout.write(`password of ${username} changed\n`);
      }),
    );
  command
    .command('set-role <username> <role>')
    .description(`change a user's role (${ROLES.join(', ')}); rights follow the role`)
    .action((username: string, role: string) =>
      run(true, async (users) => {
        await users.changeRole(username, roleOf(role));
        io.stdout.write(`${username} is now ${role}\n`);
      }),
    );
  command
    .command('list')
    .description('list users with role and rights')
    .action(() =>
      run(true, async (users) => {
        for (const name of await users.users.listNames()) {
          const user = await users.users.find(name);
          if (user) io.stdout.write(`${name}\t${user.role}\t${user.rights.join(',')}\n`);
        }
      }),
    );
  return command;
}

/** Checked before a password is asked for, so a typo in the name costs no typing. */
function usernameOf(username: string): string {
  if (!USERNAME_PATTERN.test(username)) throw new UsersCliError(USERNAME_RULE, USAGE);
  return username;
}

function roleOf(role: string): Role {
  if (!isRole(role)) throw new UsersCliError(`unknown role "${role}"; choose ${ROLES.join(', ')}`, USAGE);
  return role;
}

/** What to tell the user about a failure, or undefined for an unexpected one (rethrown). */
function explain(error: unknown): UsersCliError | undefined {
  if (error instanceof UsersCliError) return error;
  if (error instanceof PasswordInputError) return new UsersCliError(error.message, REFUSED);
  if (!(error instanceof ProblemError)) return undefined;
  const name = error.detail ?? 'the user';
  switch (error.code) {
    case 'NM_ERR_USER_EXISTS':
      return new UsersCliError(
        `user ${name} exists; use \`triad users set-password ${name}\` to change the password ` +
          `or \`triad users set-role ${name} <role>\` to change the role`,
        REFUSED,
      );
    case 'NM_ERR_USER_NOT_FOUND':
      return new UsersCliError(
        `there is no user ${name}; \`triad users list\` shows the users, \`triad users add ${name}\` adds one`,
        REFUSED,
      );
    case 'NM_ERR_LAST_ADMIN':
      return new UsersCliError(
        `${name} is the last admin and must stay one; make another user admin first ` +
          '(`triad users set-role <name> admin`)',
        REFUSED,
      );
    case 'NM_ERR_INVALID_USERNAME':
      return new UsersCliError(USERNAME_RULE, USAGE);
    case 'NM_ERR_INVALID_PASSWORD':
    case 'NM_ERR_PASSWORD_TOO_SHORT':
      return new UsersCliError(
        `a password is ${MIN_CLI_PASSWORD_LENGTH} to 128 letters and digits (a-z, A-Z, 0-9)`,
        USAGE,
      );
    default:
      return new UsersCliError(`${error.title} (${error.code})`, REFUSED);
  }
}
