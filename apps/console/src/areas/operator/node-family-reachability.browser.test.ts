/**
 * Moving a node to another family and the reachability analysis in a real browser: the node
 * manager on port 0 (authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, openWatchedPage, seriousAxeViolations, VIEWPORTS } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

describeInBrowser('node family move and reachability in Chromium', () => {
  let nodeId = '';
  let webId = '';
  const nm = useNodeManagerConsole('console-family-', async ({ api }) => {
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as { id: string }
    ).id;
    webId = (
      (await api('POST', '/api/topo/node-family', {
        name: 'Web',
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'none',
        bootstrap_strategy_opts: [],
      })) as { id: string }
    ).id;
  });
  const { api } = nm;

  const signIn = async (url: string, viewport: { width: number; height: number } = VIEWPORTS.desktop) => {
    const watched = await openWatchedPage(nm.browser, viewport);
    watched.page.setDefaultTimeout(5000);
    await watched.page.goto(url);
    await watched.page.getByLabel('Username').fill('admin');
    await watched.page.getByLabel('Password').fill('Admin123');
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    return watched;
  };

  it('moves a node to another family from its page with the keyboard, and the REST API agrees', async () => {
    const { page, errors } = await signIn(`${nm.server.url}/nodes/${nodeId}`);
    const facts = page.getByRole('region', { name: 'Facts' });
    const select = facts.getByLabel('Move to family');
    await select.waitFor();
    const move = facts.getByRole('button', { name: 'Move', exact: true });
    expect(await move.isDisabled()).toBe(true);
    await select.focus();
    await select.selectOption({ label: 'Web' });
    await move.focus();
    await page.keyboard.press('Enter');
    await facts.getByRole('status').getByText('Moved ghost@localhost to Web.').waitFor();
    await facts.getByRole('definition').filter({ hasText: /^Web$/ }).waitFor();
    const node = (await api('GET', `/api/topo/node/${nodeId}`)) as { node_family_id: string };
    expect(node.node_family_id).toBe(webId);
    expect(await select.inputValue()).toBe(webId);
    expect(await move.isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs the reachability analysis of a node name and lists its checks and hints', async () => {
    const { page, errors } = await signIn(`${nm.server.url}/nodes`, VIEWPORTS.phone);
    const region = page.getByRole('region', { name: 'Reachability' });
    await region.getByLabel('Node name to check').fill('no-at-sign');
    await region.getByLabel('Node name to check').press('Enter');
    await region.getByRole('heading', { name: 'no-at-sign is not reachable' }).waitFor();
    await region.getByRole('status').getByText('no-at-sign is not reachable.').waitFor();
    const checks = region.getByRole('list', { name: 'Checks performed' });
    expect(await checks.getByRole('listitem').allTextContents()).toEqual([
      'check_node_format failed: bad_node_format ("no-at-sign" is not of the form name@host)',
    ]);
    expect(await region.getByRole('list', { name: 'Hints' }).getByRole('listitem').allTextContents()).toEqual([
      'Give the node name exactly as node() returns it on that node, e.g. myapp@10.0.0.5 or myapp@myhost.',
    ]);

    // A well-formed name runs further checks; the console shows exactly what the service answered.
    const expected = (await api('POST', '/api/topo/action/analyse-reachability', { name: 'ghost@localhost' })) as {
      reachability: string;
      details: [{ checksPerformed: string[] }];
      hints: string[];
    };
    await region.getByLabel('Node name to check').fill('ghost@localhost');
    await region.getByRole('button', { name: 'Analyse reachability' }).click();
    await region.getByRole('heading', { name: `ghost@localhost ${expected.reachability}` }).waitFor();
    const shown = await checks.getByRole('listitem').allTextContents();
    expect(shown.map((c) => c.split(' ')[0])).toEqual(expected.details[0].checksPerformed);
    expect(shown.length).toBeGreaterThan(1);
    // Only the first hint: a later one may name the nodes other tests have registered with EPMD meanwhile.
    const hints = await region.getByRole('list', { name: 'Hints' }).getByRole('listitem').allTextContents();
    expect(hints[0]).toBe(expected.hints[0]);
    expect(hints).toHaveLength(expected.hints.length);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
