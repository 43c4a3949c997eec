import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { createTemplatesCommand, EXIT, type CliIo } from '@triad/device-templates';
import { createNodeManagerCommand, createUsersCommand } from '@triad/node-manager-service';
import { createCatalogCommand, createShopsCommand } from '@triad/content-api-service';
import { createDevicesCommand, createTokensCommand, mibNameResolver } from '@triad/templates-service';
import { createServeCommand } from './serve-command.js';

/** The version printed by `triad --version`, read from this package's manifest. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Builds the `triad` command tree, writing through `io` instead of the process. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('triad')
    .description('Triad: device templates, Erlang node management and article content search')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 invalid input (e.g. a template with errors), 2 usage or I/O error.\n' +
        'Docs: README.md and docs/cli.md',
    )
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  program.addCommand(createServeCommand(io));
  program.addCommand(
    createTemplatesCommand(io, VERSION, { oidNames: mibNameResolver }).addCommand(createTokensCommand(io)),
  );
  program.addCommand(createUsersCommand(io, { cwd: io.cwd }));
  program.addCommand(createNodeManagerCommand(io, { cwd: io.cwd }));
  program.addCommand(createCatalogCommand(io));
  program.addCommand(createShopsCommand(io));
  program.addCommand(createDevicesCommand(io));
  // Every subcommand reports usage errors through exceptions, so runCli can map them to exit 2.
  const override = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
    cmd.commands.forEach(override);
  };
  override(program);
  return program;
}

/** Runs the command line `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    io.stderr.write(`triad: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.USAGE;
  }
  return io.exitCode;
}
