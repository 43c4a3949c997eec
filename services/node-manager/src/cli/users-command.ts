import { Command } from 'commander';
import { PasswordHasher } from '../auth/password-hasher.js';
import { UserCommands } from '../commands/user-commands.js';
import { loadNodeManagerConfig, parseTagSetting } from '../config.js';
import { UserRepository } from '../repositories/user-repository.js';
import { openNodeManagerDatabase } from '../server.js';
import { ProblemError } from '@triad/service-kit';
import { reasonOf } from '../errors.js';
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
}

const VISIBLE_PASSWORD_NOTE =
  'triad users: note: a password on the command line is visible to other users of this machine (ps, shell history); leave it out to be prompted, or pipe it on standard input\n';

/**
 * `triad users add|set-password|set-role|list`: admin tasks on the node manager's database,
 * working whether the service runs or not (they open the same database; a running service sees
 * the change within its `userRecheckMs`, 1 s by default). Failures print `triad users: <reason>` and exit 1.
 */
export function createUsersCommand(io: UsersCommandIo, options: UsersCommandOptions = {}): Command {
  const command = new Command('users').description('Manage node-manager users (works on a stopped or running service)');
  command
    .option('--data-dir <dir>', 'directory of node-manager.sqlite')
    .option('--database-url <url>', 'PostgreSQL URL instead of SQLite');

  /** The password argument, or one read from the terminal or standard input. */
  const passwordOf = async (given: string | undefined): Promise<string> => {
    if (given !== undefined) {
      io.stderr.write(VISIBLE_PASSWORD_NOTE);
      return given;
    }
    return readPassword(options.passwords ?? processPasswordSource());
  };

  const run = async (work: (users: UserCommands) => Promise<void>) => {
    const globals = command.opts<{ dataDir?: string; databaseUrl?: string }>();
    const config = loadNodeManagerConfig(options.env, {
      logLevel: 'silent',
      ...(globals.dataDir ? { dataDir: globals.dataDir } : {}),
      ...(globals.databaseUrl ? { databaseUrl: globals.databaseUrl } : {}),
    });
    const database = await openNodeManagerDatabase(config);
    try {
      await work(
        new UserCommands(
          new UserRepository(database),
          new PasswordHasher(config.scryptCost),
          parseTagSetting(config.defaultUserTags),
        ),
      );
    } catch (error) {
      if (error instanceof PasswordInputError) {
        io.stderr.write(`triad users: ${error.message}\n`);
        io.exitCode = Math.max(io.exitCode, 1);
        return;
      }
      if (!(error instanceof ProblemError)) throw error;
      io.stderr.write(`triad users: ${reasonOf(error.code)}\n`);
      io.exitCode = Math.max(io.exitCode, 1);
    } finally {
      await database.close();
    }
  };

  command
    .command('add <username> [password]')
    .description('add a user (letters and digits); without [password] it is asked for, or read from standard input')
    .option('--role <role>', 'guest, user or admin', 'user')
    .action((username: string, password: string | undefined, o: { role: string }) =>
      run(async (users) => {
        await users.addUser(username, await passwordOf(password));
        if (o.role !== 'user') await users.changeRole(username, o.role);
        io.stdout.write(`added ${username} (${o.role})\n`);
      }),
    );
  command
    .command('set-password <username> [password]')
    .description("change a user's password; without [password] it is asked for, or read from standard input")
    .action((username: string, password: string | undefined) =>
      run(async (users) => {
        await users.changePassword(username, await passwordOf(password));
        io.stdout.write(`password of ${username} changed\n`);
      }),
    );
  command
    .command('set-role <username> <role>')
    .description("change a user's role (rights follow the role)")
    .action((username: string, role: string) =>
      run(async (users) => {
        await users.changeRole(username, role);
        io.stdout.write(`${username} is now ${role}\n`);
      }),
    );
  command
    .command('list')
    .description('list users with role and rights')
    .action(() =>
      run(async (users) => {
        for (const name of await users.users.listNames()) {
          const user = await users.users.find(name);
          if (user) io.stdout.write(`${name}\t${user.role}\t${user.rights.join(',')}\n`);
        }
      }),
    );
  return command;
}
