/**
 * A node's plugin switches in a real browser: the node manager on port 0 (SQLite in a temporary
 * directory, authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, openWatchedPage, seriousAxeViolations } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';
import { parsePlugins, type PluginWire } from './plugin-wire.js';

describeInBrowser('node plugin switches in Chromium', () => {
  let nodeId = '';
  const nm = useNodeManagerConsole('console-plugins-', async ({ api }) => {
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as { id: string }
    ).id;
  });
  const { api } = nm;
  const codeTracerOn = async () => {
    const reply = (await api('GET', `/api/plugins/node/${nodeId}/plugin`)) as { plugins: PluginWire[] };
    return parsePlugins(reply.plugins).find((p) => p.name === 'wombat_plugin_code_tracer')?.on;
  };

  it('switches a plugin on and off from the node page, and the REST API agrees', async () => {
    const { page, errors } = await openWatchedPage(nm.browser);
    page.setDefaultTimeout(5000);
    await page.goto(`${nm.server.url}/nodes/${nodeId}`);
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
