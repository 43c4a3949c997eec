import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startNodeManagerServer, type RunningNodeManagerServer } from '@triad/node-manager-service';
import { CONSOLE_ROOT, consoleBuilt, launchBrowser } from './browser.js';

/** Basic header of the admin every console test's node manager starts with (admin/Admin123). */
export const NODE_MANAGER_ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

/** What `useNodeManagerConsole` gives the tests of a `describe` block. */
export interface NodeManagerConsole {
  readonly server: RunningNodeManagerServer;
  readonly browser: Browser;
  /** Calls the REST API (as the admin unless `auth` says otherwise) and returns the JSON reply (undefined for none). */
  readonly api: (method: string, url: string, body?: unknown, auth?: Record<string, string>) => Promise<unknown>;
}

/**
 * Registers, in the calling `describe` block, a node manager on port 0 (SQLite in a fresh
 * `prefix` data directory, authentication on, admin/Admin123, no demo node unless `demo`) serving the built
 * console, and Chromium; `setup` runs once both are up. Everything is stopped after the block.
 */
export function useNodeManagerConsole(
  prefix: string,
  setup?: (nm: NodeManagerConsole) => Promise<void>,
  options: {
    readonly demo?: boolean;
    /** More settings for the server, over the defaults here (e.g. `TRIAD_NODE_DOWN_ALARM_AFTER_MS`). */
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): NodeManagerConsole {
  let server: RunningNodeManagerServer | undefined;
  let browser: Browser | undefined;
  let dataDir = '';
  const nm: NodeManagerConsole = {
    get server() {
      if (!server) throw new Error('The node manager starts in beforeAll');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium starts in beforeAll');
      return browser;
    },
    api: async (method, url, body, auth = NODE_MANAGER_ADMIN) => {
      const response = await fetch(`${nm.server.url}${url}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    },
  };
  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    dataDir = await mkdtemp(path.join(tmpdir(), prefix));
    server = await startNodeManagerServer(
      { port: 0, dataDir, demo: options.demo ?? false },
      {
        env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123', ...options.env },
        consoleRoot: CONSOLE_ROOT,
      },
    );
    browser = await launchBrowser();
    await setup?.(nm);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return nm;
}
