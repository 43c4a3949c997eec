import { createRequire } from 'node:module';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { errorMessage } from '@triad/common';
import { EXIT, raiseExit, type CliIo } from '@triad/device-templates';
import { LOG_FORMATS, type ConsoleLink, type LogFormat } from '@triad/service-kit';
import { portFromBase, SERVICES, type RunningService } from './service-catalogue.js';

/** How long shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000; // 10 s

/** Options of `triad serve` as commander parses them. */
interface ServeCommandOptions {
  readonly host: string;
  readonly port?: number;
  readonly portBase?: number;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly databaseReadUrl?: readonly string[];
  readonly demo: boolean;
  readonly logFormat?: LogFormat;
}

/**
 * `triad serve [service...]`: starts services and runs until SIGINT or SIGTERM. A service's port
 * is, first to last: `--port` (one service only), its `TRIAD_*_PORT` variable, `--port-base N`
 * plus its place in `SERVICES`, its default port.
 */
export function createServeCommand(io: CliIo): Command {
  const names = SERVICES.map((s) => s.name);
  const lastOffset = SERVICES.length - 1;
  return new Command('serve')
    .description(
      `Start services (all when none is named): ${SERVICES.map((s) => `${s.name} on ${s.defaultPort}`).join(', ')}`,
    )
    .argument('[services...]', `services to start: ${names.join(', ')}`)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (only when one service is named)', parsePort)
    .option(
      '--port-base <port>',
      `put the services on consecutive ports from this one (${names.map((n, i) => `${n} +${i}`).join(', ')}); ` +
        'a TRIAD_*_PORT variable still moves its own service',
      (value: string) => parsePortBase(value, lastOffset),
    )
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
    .addOption(
      new Option(
        '--database-read-url <urls>',
        'PostgreSQL streaming replicas (comma-separated URLs) the content API sends searches and reads to; ' +
          'needs --database-url',
      )
        .env('DATABASE_READ_URL')
        .argParser(parseUrlList),
    )
    .addOption(
      new Option(
        '--log-format <format>',
        'log lines: pretty or json (default: TRIAD_LOG_FORMAT, else pretty on a terminal and json otherwise)',
      ).choices(LOG_FORMATS),
    )
    .option('--no-demo', 'do not seed demo data into an empty store')
    .addHelpText(
      'after',
      '\nEvery service answers GET /healthz with 200 once ready. Logs go to standard error.\n' +
        'Examples:\n  triad serve\n  triad serve --port-base 9000\n  triad serve templates --port 9000 --no-demo',
    )
    .action(async (requested: string[], opts: ServeCommandOptions) => {
      const unknown = requested.filter((n) => !names.includes(n));
      if (unknown.length > 0) {
        io.stderr.write(`triad serve: unknown service ${unknown.join(', ')}; choose from ${names.join(', ')}\n`);
        raiseExit(io, EXIT.USAGE);
        return;
      }
      if (opts.port !== undefined && requested.length !== 1) {
        io.stderr.write(
          'triad serve: --port needs exactly one service name, e.g. triad serve templates --port 9000; ' +
            'for every service use --port-base\n',
        );
        raiseExit(io, EXIT.USAGE);
        return;
      }
      const chosen = SERVICES.map((service, index) => ({ service, index })).filter(
        ({ service }) => requested.length === 0 || requested.includes(service.name),
      );
      const dataDir = path.resolve(io.cwd, opts.dataDir);
      const consoleRoot = consoleBuildFolder();
      const running: RunningService[] = [];
      // Filled in as services start; each console reads it at page load, so every link is known by then.
      const consoleLinks: ConsoleLink[] = [];
      const lines: string[] = [];
      try {
        for (const { service, index } of chosen) {
          const instance = await service.start({
            host: opts.host,
            dataDir,
            demo: opts.demo,
            ...(opts.port !== undefined ? { port: opts.port } : {}),
            ...(opts.portBase !== undefined ? { fallbackPort: portFromBase(opts.portBase, index) } : {}),
            ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
            ...(opts.databaseReadUrl ? { databaseReadUrls: opts.databaseReadUrl } : {}),
            ...(opts.logFormat ? { logFormat: opts.logFormat } : {}),
            consoleLinks: () => consoleLinks,
            ...(consoleRoot !== undefined ? { consoleRoot } : {}),
          });
          running.push(instance);
          consoleLinks.push({ ...service.console, url: instance.url });
          lines.push(`${service.title.padEnd(18)} ${instance.url}`);
          for (const note of instance.notes ?? []) lines.push(`${''.padEnd(18)} ${note}`);
        }
        // The consoles first, one per area: the pages a person opens (each links to the others).
        if (consoleLinks.length > 0) {
          io.stdout.write('Consoles (open one in a browser; the top bar switches between them):\n');
          for (const link of consoleLinks) io.stdout.write(`  ${`${link.title} console`.padEnd(26)} ${link.url}/\n`);
          io.stdout.write('Services (their APIs; /docs describes each):\n');
        }
        for (const line of lines) io.stdout.write(`${line}\n`);
      } catch (error) {
        io.stderr.write(`triad serve: could not start: ${errorMessage(error)}\n`);
        await Promise.allSettled(running.map((r) => r.close()));
        raiseExit(io, EXIT.USAGE);
        return;
      }
      // Listening before the ready line: a supervisor (or a test) that stops the process as soon as
      // it reads the line must find the handler in place, not the default action of the signal.
      const signalled = waitForSignal();
      io.stdout.write(`Data: ${opts.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : dataDir}. Press Ctrl+C to stop.\n`);
      await signalled;
      io.stdout.write('Shutting down...\n');
      const timer = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
      await Promise.allSettled(running.map((r) => r.close()));
      clearTimeout(timer);
    });
}

/**
 * The console's build folder, `dist/` of `@triad/console` (`index.html` and `assets/`), which the
 * services serve at `/`; undefined when the console is not installed. The command line finds it
 * and hands it to the services, because a package (service-kit) never depends on an app.
 */
export function consoleBuildFolder(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@triad/console/package.json');
    return path.join(path.dirname(manifest), 'dist');
  } catch {
    return undefined;
  }
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

/** `a,b` -> ['a', 'b']: each must be a PostgreSQL URL. */
function parseUrlList(value: string): string[] {
  const urls = value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  for (const url of urls)
    if (!/^postgres(ql)?:\/\//i.test(url))
      throw new InvalidArgumentError('each replica is a postgres:// or postgresql:// URL, separated by commas');
  return urls;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}

/** A `--port-base` that leaves room for every service: 1 to 65535 minus the last service's offset. */
function parsePortBase(value: string, lastOffset: number): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port + lastOffset > 65535)
    throw new InvalidArgumentError(`a port base is an integer from 1 to ${65535 - lastOffset}`);
  return port;
}
