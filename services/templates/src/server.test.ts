import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTemplatesServer,
  TEMPLATES_SECRET_KEY_FILE,
  TEMPLATES_SQLITE_FILE,
  type RunningTemplatesServer,
} from './server.js';
import { defaultExamplesDirectory } from './demo/seed-example-templates.js';
import { sampleTemplate } from './test-support/sample-templates.js';

/** The demo token a server printed, as the header device reads need (issue 23). */
function demoToken(server: RunningTemplatesServer | undefined): Record<string, string> {
  const token = / (\S+)$/.exec(server?.notes.find((note) => note.startsWith('write token')) ?? '')?.[1];
  return { authorization: `Bearer ${token ?? ''}` };
}

describe('startTemplatesServer', () => {
  let directory: string;
  let server: RunningTemplatesServer | undefined;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-templates-server-'));
    const seeds = path.join(directory, 'seeds');
    await import('node:fs/promises').then((fs) => fs.mkdir(seeds));
    await writeFile(path.join(seeds, 'good.ndst.json'), JSON.stringify(sampleTemplate({ templateId: 'Seeded' })));
    await writeFile(path.join(seeds, 'bad.ndst.yaml'), 'templateId: [unclosed\n');
    await writeFile(path.join(seeds, 'notes.txt'), 'not a template');
    server = await startTemplatesServer(
      { port: 0, dataDir: path.join(directory, 'data'), demo: true, seedDir: seeds, logLevel: 'silent' },
      { env: {} },
    );
  });

  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('listens on a real port and answers /healthz over HTTP', async () => {
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server?.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    // Which instance answered (`<host>-<pid>-<6 hex>`), and that it collects nothing yet.
    expect(await response.json()).toEqual({
      status: 'ok',
      instance: expect.stringMatching(new RegExp(`-${process.pid}-[0-9a-f]{6}$`)) as unknown,
      devicesOwned: 0,
    });
  });

  it('stores data in <dataDir>/templates.sqlite and seeds only the example files that validate', async () => {
    expect(existsSync(path.join(directory, 'data', TEMPLATES_SQLITE_FILE))).toBe(true);
    const list = (await (await fetch(`${server?.url}/templates`)).json()) as {
      total: number;
      items: { templateId: string }[];
    };
    expect(list.total).toBe(1);
    expect(list.items[0]?.templateId).toBe('Seeded');
  });

  it('creates its device-credential key file 0600, and adds no demo device without the ICMP example', async () => {
    const { stat } = await import('node:fs/promises');
    expect((await stat(path.join(directory, 'data', TEMPLATES_SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
    const devices = (await (await fetch(`${server?.url}/devices`, { headers: demoToken(server) })).json()) as {
      devices: unknown[];
    };
    expect(devices.devices).toEqual([]);
  });

  it('with the shipped examples, adds the demo device that pings this machine', async () => {
    const other = await startTemplatesServer(
      { port: 0, dataDir: path.join(directory, 'demo'), demo: true, logLevel: 'silent' },
      { env: {} },
    );
    try {
      const reply = (await (await fetch(`${other.url}/devices`, { headers: demoToken(other) })).json()) as {
        devices: { name: string; templateId: string; variables: Record<string, string> }[];
      };
      expect(reply.devices).toMatchObject([
        { name: 'This machine (ping)', templateId: 'ICMP host', variables: { ICMP_IPAddress: '127.0.0.1' } },
      ]);
    } finally {
      await other.close();
    }
  });

  it('refuses a second instance on the same SQLite file, saying how to run several', async () => {
    const second = startTemplatesServer(
      { port: 0, dataDir: path.join(directory, 'data'), demo: false, logLevel: 'silent' },
      { env: {} },
    );
    await expect(second).rejects.toMatchObject({ code: 'DB_ERR_SQLITE_IN_USE' });
    await expect(second).rejects.toThrow(/the template service \(pid \d+ on .*PostgreSQL \(DATABASE_URL\)/s);
    // The first one still answers.
    expect((await fetch(`${server?.url}/healthz`)).status).toBe(200);
  });

  it('fails to start on a port in use and leaves the running server alone', async () => {
    const port = Number(new URL(server?.url ?? '').port);
    await expect(
      startTemplatesServer(
        { port, dataDir: path.join(directory, 'other'), demo: false, logLevel: 'silent' },
        { env: {} },
      ),
    ).rejects.toThrow(/EADDRINUSE/);
    expect((await fetch(`${server?.url}/healthz`)).status).toBe(200);
  });

  it('closes idempotently and stops answering', async () => {
    const url = server?.url;
    await server?.close();
    await server?.close();
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    server = undefined;
  });
});

describe('defaultExamplesDirectory', () => {
  it('finds the examples folder of the installed device-templates package', () => {
    const found = defaultExamplesDirectory();
    expect(found).toBeDefined();
    expect(found?.endsWith(path.join('@triad', 'device-templates', 'examples'))).toBe(true);
  });
});
