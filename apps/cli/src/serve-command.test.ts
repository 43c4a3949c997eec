import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleBuildFolder } from './serve-command.js';
import { SERVICES } from './service-catalogue.js';
import { freePortRun } from './test-support/free-ports.js';
import {
  startTriad,
  startTriadOnTerminal,
  stopTriad,
  waitFor,
  type TriadProcess,
} from './test-support/serve-process.js';

/** A start of three services from the sources (tsx compiles on the fly) on a busy 2-core machine. */
const START_BUDGET_MS = 90_000;
const READY_LINE = 'Press Ctrl+C to stop.';

let dataDir = '';
let triad: TriadProcess | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'triad-serve-'));
});
afterEach(async () => {
  if (triad) await stopTriad(triad);
  triad = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** The port of the URL `serve` printed after `title`. */
function printedPort(stdout: string, title: string): number {
  const match = new RegExp(`^${title}\\s+http://127\\.0\\.0\\.1:(\\d+)$`, 'm').exec(stdout);
  if (!match?.[1]) throw new Error(`no URL for ${title} in:\n${stdout}`);
  return Number(match[1]);
}

/** The `service` of every JSON log line; throws on a line that is not JSON. */
function jsonLogServices(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { service?: string }).service ?? '');
}

describe('consoleBuildFolder', () => {
  it("finds the console's build folder in the @triad/console workspace", () => {
    expect(consoleBuildFolder()).toBe(fileURLToPath(new URL('../../console/dist', import.meta.url)));
  });
});

describe('triad serve, as npm start runs it', () => {
  it(
    'puts the services on --port-base N, N+1, N+2 and answers every URL the README promises with 200',
    async () => {
      const base = await freePortRun(SERVICES.length);
      triad = startTriad(['serve', '--port-base', String(base), '--data-dir', dataDir], {
        TRIAD_SCRYPT_COST: '16',
        TRIAD_ADMIN_PASSWORD: 'Admin123',
        TRIAD_LOG_FORMAT: undefined,
      });
      await waitFor(triad, () => triad!.stdout().includes(READY_LINE), START_BUDGET_MS, 'the ready line');
      const out = triad.stdout();
      const ports = SERVICES.map((s) => printedPort(out, s.title));
      expect(ports).toEqual(SERVICES.map((_s, i) => base + i));
      // Every area's console is printed with its own URL, named as the top bar names it.
      for (const [i, service] of SERVICES.entries()) {
        expect(out).toMatch(
          new RegExp(`^  ${service.console.title} console\\s+http://127\\.0\\.0\\.1:${base + i}/$`, 'm'),
        );
      }
      const statuses: Record<string, number> = {};
      // The node manager's API, /metrics included, needs a signed-in user; the others are open.
      const signIn = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
      for (const port of ports) {
        for (const route of ['/healthz', '/docs', '/openapi.json', '/metrics']) {
          const url = `http://127.0.0.1:${port}${route}`;
          statuses[url] = (await fetch(url, { headers: port === base ? signIn : {} })).status;
        }
      }
      expect(statuses).toEqual(Object.fromEntries(Object.keys(statuses).map((url) => [url, 200])));
      // The console's build, which the command line finds and hands down, at / of every service.
      for (const port of ports) {
        const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<meta name="triad-console"');
      }
      // Standard error is a pipe here, not a terminal: JSON lines, from every service.
      expect(new Set(jsonLogServices(triad.stderr()))).toEqual(new Set(SERVICES.map((s) => s.name)));
      expect(await stopTriad(triad)).toBe(0);
      expect(triad.stdout()).toContain('Shutting down...');
    },
    START_BUDGET_MS + 30_000,
  );

  it(
    'lets a TRIAD_*_PORT variable move its service off the --port-base port, and prints pretty logs on request',
    async () => {
      const base = await freePortRun(SERVICES.length + 1);
      const contentPort = base + SERVICES.length;
      triad = startTriad(
        ['serve', '--port-base', String(base), '--data-dir', dataDir, '--no-demo', '--log-format', 'pretty'],
        { TRIAD_CONTENT_PORT: String(contentPort), TRIAD_SCRYPT_COST: '16' },
      );
      await waitFor(triad, () => triad!.stdout().includes(READY_LINE), START_BUDGET_MS, 'the ready line');
      const out = triad.stdout();
      expect(printedPort(out, 'Node manager')).toBe(base);
      expect(printedPort(out, 'Content API')).toBe(contentPort);
      expect(printedPort(out, 'Template service')).toBe(base + 2);
      expect((await fetch(`http://127.0.0.1:${contentPort}/healthz`)).status).toBe(200);
      const err = triad.stderr();
      expect(err).toMatch(/INFO.*:/);
      expect(err).toContain('service: "templates"');
      expect(() => jsonLogServices(err)).toThrow(SyntaxError);
      expect(await stopTriad(triad)).toBe(0);
    },
    START_BUDGET_MS + 30_000,
  );

  it(
    'prints human-readable log lines on a terminal and stops on Ctrl+C',
    async () => {
      const [port] = [await freePortRun(1)];
      triad = startTriadOnTerminal(
        ['serve', 'templates', '--port', String(port), '--data-dir', dataDir, '--no-demo'],
        // No inherited TRIAD_LOG_FORMAT: the terminal alone decides.
        { TRIAD_LOG_FORMAT: undefined },
      );
      await waitFor(triad, () => triad!.stdout().includes(READY_LINE), START_BUDGET_MS, 'the ready line');
      await waitFor(triad, () => /INFO/.test(triad!.stdout()), 10_000, 'a log line');
      const screen = triad.stdout();
      expect(screen).not.toContain('{"level":');
      expect(screen).toContain(`http://127.0.0.1:${port}`);
      triad.child.stdin?.write('\u0003'); // Ctrl+C on the terminal: SIGINT to the command
      expect(await triad.exited).toBe(0);
      expect(triad.stdout()).toContain('Shutting down...');
    },
    START_BUDGET_MS + 30_000,
  );
});
