/**
 * Triage on the alarm list in a real browser: severities and states as icon and word in their
 * colours, sorting and the severity filter, bulk acknowledge / comment / clear through the
 * console's own dialog, who acknowledged and commented and when, the live count of new alarms in
 * the navigation, and a guest who is offered no action.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { checkLook, describeInBrowser, openWatchedPage } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate', 'cleared'];

describeInBrowser('alarm triage in Chromium', () => {
  const nm = useNodeManagerConsole(
    'console-triage-',
    async ({ api, server }) => {
      const { id: nodeId } = (await api('POST', '/api/topo/action/add-node', {
        name: 'ghost@localhost',
        cookie: 'c',
      })) as { id: string };
      for (const severity of SEVERITIES)
        await server.core.alarms.raise({
          alarmId: `${severity}_alarm`,
          nodeId,
          severity,
          additionalInformation: `Something ${severity} happened on the node.`,
        });
      await server.core.alarms.raise({ alarmId: 'second_major', nodeId, severity: 'major' });
      await api('POST', '/api/users/add_user', { username: 'gina', password: 'Gina1234' });
      await api('POST', '/api/users/change_role', { username: 'gina', role: 'guest' });
    },
    { env: { TRIAD_NODE_DOWN_ALARM_AFTER_MS: '86400000' } },
  );

  const signIn = async (username: string, password: string) => {
    const watched = await openWatchedPage(nm.browser);
    watched.page.setDefaultTimeout(10_000);
    await watched.page.goto(`${nm.server.url}/alarms`);
    await watched.page.getByLabel('Username').fill(username);
    await watched.page.getByLabel('Password').fill(password);
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    await watched.page.getByRole('rowheader', { name: 'critical_alarm' }).waitFor();
    return watched;
  };
  const shownIds = (page: Page) => page.locator('tbody tr th').allTextContents();
  const navLink = (page: Page) =>
    page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: /^Alarms/ });

  it('sorts by severity, filters by it, and acts on selected alarms with who and when shown', async () => {
    const { page, errors } = await signIn('admin', 'Admin123');
    await expect.poll(() => navLink(page).textContent()).toBe('Alarms 7 new');
    // Every severity as icon and word; the words are the API's.
    for (const severity of SEVERITIES)
      expect(await page.getByRole('row', { name: new RegExp(`${severity}_alarm`) }).textContent()).toContain(severity);
    expect(await checkLook(page, 'operator-alarms-severities')).toEqual([]);

    const severityHeader = page.getByRole('columnheader', { name: 'Severity' });
    await severityHeader.getByRole('button').click();
    await expect.poll(() => severityHeader.getAttribute('aria-sort')).toBe('ascending');
    expect((await shownIds(page)).slice(0, 3)).toEqual(['critical_alarm', 'second_major', 'major_alarm']);
    expect((await shownIds(page)).at(-1)).toBe('cleared_alarm');

    await page.getByLabel('Severity').selectOption('major');
    await expect.poll(() => shownIds(page)).toEqual(['second_major', 'major_alarm']);
    expect(new URL(page.url()).search).toBe('?severity=major');
    // The pager counts the page's alarms and says how many the severity leaves.
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Alarm pages' }).getByRole('paragraph').textContent())
      .toMatch(/^Page 1: alarms 1–\d+, 2 of them major$/);

    // Both majors at once: acknowledged by admin, and the count in the navigation follows.
    await page.getByRole('checkbox', { name: 'Select every alarm shown' }).check();
    await page.getByRole('group', { name: 'Selected alarms' }).getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Acknowledge selected' }).click();
    await page.getByRole('status').getByText('Acknowledged 2 alarms.').waitFor();
    await expect.poll(() => navLink(page).textContent()).toBe('Alarms 5 new');
    const major = page.getByRole('row', { name: /major_alarm/ });
    await major.getByText(/^by admin, /).waitFor();

    // Comment in the console's own dialog (no browser prompt), on both, then shown with who and when.
    await page.getByRole('checkbox', { name: 'Select major_alarm on ghost@localhost' }).check();
    await page.getByRole('checkbox', { name: 'Select second_major on ghost@localhost' }).check();
    await page.getByRole('button', { name: 'Comment on selected…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Comment on 2 alarms' });
    await dialog.waitFor();
    await dialog.getByLabel('Comment').fill('Disk replaced, watching it.');
    expect(await checkLook(page, 'operator-alarm-comment-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('status').getByText('Commented on 2 alarms.').waitFor();
    await major
      .getByRole('list', { name: /Comments on major_alarm/ })
      .getByText(/^admin, .*:/)
      .waitFor();
    expect(await major.textContent()).toContain('Disk replaced, watching it.');
    const listed = (await nm.api('GET', '/api/alarm?tags=all&limit=50')) as {
      alarms: { alarmId: string; comments: { user: string; text: string }[]; ackInfo: { user: string } | null }[];
    };
    const stored = listed.alarms.find((a) => a.alarmId === 'major_alarm');
    expect(stored?.comments).toEqual([expect.objectContaining({ user: 'admin', text: 'Disk replaced, watching it.' })]);
    expect(stored?.ackInfo).toMatchObject({ user: 'admin' });

    // Clear asks first: Cancel keeps the alarm, the confirm clears it.
    await major.getByRole('button', { name: 'Clear…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Clear major_alarm on ghost@localhost?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await shownIds(page)).toContain('major_alarm');
    await major.getByRole('button', { name: 'Clear…' }).click();
    await confirm.getByRole('button', { name: 'Clear alarm' }).click();
    await expect.poll(() => shownIds(page)).toEqual(['second_major']);
    expect(await checkLook(page, 'operator-alarms-acknowledged')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offers a guest (read right only) no selection and no action, and says why', async () => {
    const { page, errors } = await signIn('gina', 'Gina1234');
    await page.getByText('acknowledging, clearing and commenting need the write right').waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Acknowledge|Clear|Comment/ }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    expect(await checkLook(page, 'operator-alarms-guest')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
