import { Command, CommanderError } from 'commander';
import type { CatalogCommandIo } from '../cli/catalog-command.js';

/** What a command line printed and its exit code. */
export interface CommandRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `triad <args>` in memory against a root holding the commands `build` makes for an io whose
 * `cwd` is `cwd`; commander usage errors count as exit 2, as `runCli` maps them.
 */
export async function runCommands(
  cwd: string,
  build: (io: CatalogCommandIo) => readonly Command[],
  args: readonly string[],
): Promise<CommandRun> {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd,
    exitCode: 0,
  };
  const root = new Command('triad');
  for (const command of build(io)) root.addCommand(command);
  const quiet = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (err += s) });
    cmd.commands.forEach(quiet);
  };
  quiet(root);
  let code: number;
  try {
    await root.parseAsync([...args], { from: 'user' });
    code = io.exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode === 0 ? 0 : 2;
  }
  return { code, out, err };
}
