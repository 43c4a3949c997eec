/**
 * The node list as every console list behaves (`DataTable`): sorting by keyboard with
 * `aria-sort`, and on a 390-pixel screen a table that scrolls in its own named region, says so,
 * and never widens the page. The node manager on port 0, Chromium through playwright-core.
 */
import { expect, it } from 'vitest';
import {
  checkLook,
  describeInBrowser,
  openWatchedPage,
  seriousAxeViolations,
  VIEWPORTS,
} from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const NODES = ['node10@db-primary.example.net', 'node2@cache', 'alpha@edge-router'];

describeInBrowser('node list table in Chromium', () => {
  const nm = useNodeManagerConsole('console-nodes-', async ({ api }) => {
    for (const name of NODES) await api('POST', '/api/topo/action/add-node', { name, cookie: 'c' });
  });

  const signedIn = async (viewport: { readonly width: number; readonly height: number }) => {
    const watched = await openWatchedPage(nm.browser, viewport);
    watched.page.setDefaultTimeout(10_000);
    await watched.page.goto(`${nm.server.url}/nodes`);
    await watched.page.getByLabel('Username').fill('admin');
    await watched.page.getByLabel('Password').fill('Admin123');
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    await watched.page.getByRole('rowheader', { name: 'alpha@edge-router' }).waitFor();
    return watched;
  };

  it('sorts by a column from the keyboard, either way, and says so with aria-sort', async () => {
    const { page, errors } = await signedIn(VIEWPORTS.desktop);
    const names = () => page.getByRole('rowheader').allTextContents();
    const header = page.getByRole('columnheader', { name: 'Node' });
    expect(await header.getAttribute('aria-sort')).toBeNull();

    await header.getByRole('button', { name: 'Node' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    // Text sorts as people read it: node2 before node10.
    expect(await names()).toEqual(['alpha@edge-router', 'node2@cache', 'node10@db-primary.example.net']);

    await page.keyboard.press('Space');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    expect(await names()).toEqual(['node10@db-primary.example.net', 'node2@cache', 'alpha@edge-router']);
    // The actions column does not sort.
    expect(await page.getByRole('columnheader', { name: 'Actions' }).getByRole('button').count()).toBe(0);
    expect(await checkLook(page, 'operator-nodes-sorted')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('scrolls sideways in its own named region on a phone, never the page', async () => {
    const { page, errors } = await signedIn(VIEWPORTS.phone);
    const region = page.getByRole('region', { name: 'Managed nodes' });
    await region.waitFor();
    expect(await region.getAttribute('tabindex')).toBe('0');
    expect(await page.getByText('More columns: scroll sideways →').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);

    // Arrow keys scroll the focused region; at its end the hint points back.
    await region.focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
    await page.getByText('← More columns to the left').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
