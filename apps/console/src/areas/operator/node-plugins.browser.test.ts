/**
 * A node's plugin switches in a real browser: the node manager on port 0 (SQLite in a temporary
 * directory, authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeManagerServer, type RunningNodeManagerServer } from '@triad/node-manager-service';
import {
  consoleBuilt,
  describeInBrowser,
  launchBrowser,
  openWatchedPage,
  seriousAxeViolations,
} from '../../test-support/browser.js';
import { parsePlugins, type PluginWire } from './plugin-wire.js';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

describeInBrowser('node plugin switches in Chromium', () => {
  let server: RunningNodeManagerServer;
  let browser: Browser;
  let dataDir = '';
  let nodeId = '';
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { ...ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as unknown;
  };
  const codeTracerOn = async () => {
    const reply = (await api('GET', `/api/plugins/node/${nodeId}/plugin`)) as { plugins: PluginWire[] };
    return parsePlugins(reply.plugins).find((p) => p.name === 'wombat_plugin_code_tracer')?.on;
  };

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    dataDir = await mkdtemp(path.join(tmpdir(), 'console-plugins-'));
    server = await startNodeManagerServer(
      { port: 0, dataDir, demo: false },
      { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
    );
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as { id: string }
    ).id;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('switches a plugin on and off from the node page, and the REST API agrees', async () => {
    const { page, errors } = await openWatchedPage(browser);
    page.setDefaultTimeout(5000);
    await page.goto(`${server.url}/nodes/${nodeId}`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const plugins = page.getByRole('region', { name: 'Plugins' });
    const tracer = plugins.getByRole('switch', { name: 'wombat_plugin_code_tracer' });
    await tracer.waitFor();
    expect(await tracer.getAttribute('aria-checked')).toBe('false');
    expect(await plugins.getByRole('switch', { name: 'wombat_plugin_sasl' }).getAttribute('aria-checked')).toBe('true');
    expect(await codeTracerOn()).toBe(false);

    await tracer.click();
    await plugins.getByRole('status').getByText('wombat_plugin_code_tracer is on.').waitFor();
    expect(await tracer.getAttribute('aria-checked')).toBe('true');
    expect(await codeTracerOn()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await tracer.focus();
    await page.keyboard.press('Space');
    await plugins.getByRole('status').getByText('wombat_plugin_code_tracer is off.').waitFor();
    expect(await codeTracerOn()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
