import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, raiseExit, type CliIo } from '@triad/device-templates';
import { SERVICES, type RunningService } from './service-catalogue.js';

/** How long shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000; // 10 s

/** `triad serve [service...]`: starts services and runs until SIGINT or SIGTERM. */
export function createServeCommand(io: CliIo): Command {
  const names = SERVICES.map((s) => s.name);
  return new Command('serve')
    .description(
      `Start services (all when none is named): ${SERVICES.map((s) => `${s.name} on ${s.defaultPort}`).join(', ')}`,
    )
    .argument('[services...]', `services to start: ${names.join(', ')}`)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (only when one service is named)', parsePort)
    .addOption(
      new Option('--data-dir <dir>', 'directory for SQLite files and other state')
        .env('TRIAD_DATA_DIR')
        .default('./data'),
    )
    .addOption(
      new Option(
        '--database-url <url>',
        'PostgreSQL URL; when set, services store their data there instead of SQLite',
      ).env('DATABASE_URL'),
    )
    .option('--no-demo', 'do not seed demo data into an empty store')
    .addHelpText(
      'after',
      '\nEvery service answers GET /healthz with 200 once ready.\nExamples:\n  triad serve\n  triad serve templates --port 9000 --no-demo',
    )
    .action(
      async (
        requested: string[],
        opts: { host: string; port?: number; dataDir: string; databaseUrl?: string; demo: boolean },
      ) => {
        const unknown = requested.filter((n) => !names.includes(n));
        if (unknown.length > 0) {
          io.stderr.write(`triad serve: unknown service ${unknown.join(', ')}; choose from ${names.join(', ')}\n`);
          raiseExit(io, EXIT.USAGE);
          return;
        }
        if (opts.port !== undefined && requested.length !== 1) {
          io.stderr.write(
            'triad serve: --port needs exactly one service name, e.g. triad serve templates --port 9000\n',
          );
          raiseExit(io, EXIT.USAGE);
          return;
        }
        const chosen = requested.length === 0 ? SERVICES : SERVICES.filter((s) => requested.includes(s.name));
        const dataDir = path.resolve(io.cwd, opts.dataDir);
        const running: RunningService[] = [];
        try {
          for (const service of chosen) {
            const instance = await service.start({
              host: opts.host,
              dataDir,
              demo: opts.demo,
              ...(opts.port !== undefined ? { port: opts.port } : {}),
              ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
            });
            running.push(instance);
            io.stdout.write(`${service.title.padEnd(18)} ${instance.url}\n`);
            for (const note of instance.notes ?? []) io.stdout.write(`${''.padEnd(18)} ${note}\n`);
          }
        } catch (error) {
          io.stderr.write(`triad serve: could not start: ${(error as Error).message}\n`);
          await Promise.allSettled(running.map((r) => r.close()));
          raiseExit(io, EXIT.USAGE);
          return;
        }
        io.stdout.write(`Data: ${opts.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : dataDir}. Press Ctrl+C to stop.\n`);
        await waitForSignal();
        io.stdout.write('Shutting down...\n');
        const timer = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
        await Promise.allSettled(running.map((r) => r.close()));
        clearTimeout(timer);
      },
    );
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // A second signal during shutdown ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}
