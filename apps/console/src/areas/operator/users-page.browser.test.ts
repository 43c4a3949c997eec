/**
 * The Admin page in a real browser: the node manager on port 0 (SQLite in a temporary directory,
 * authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { expect, it } from 'vitest';
import { checkLook, describeInBrowser, openWatchedPage, seriousAxeViolations } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

describeInBrowser('operator Admin page in Chromium', () => {
  const nm = useNodeManagerConsole('console-admin-');
  const { api } = nm;

  it('adds a user, sets its tags, changes its role, deletes it and saves a bookmark; the API agrees', async () => {
    const { page, errors } = await openWatchedPage(nm.browser);
    page.setDefaultTimeout(5000);
    await page.goto(`${nm.server.url}/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/users');
    await page.getByRole('rowheader', { name: 'admin', exact: true }).waitFor();

    // A refused name: the API's reason as a sentence saying how to fix it, and the form keeps what was typed.
    await page.getByLabel('New username').fill('bob smith!');
    await page.getByLabel('New password').fill('Bob12345');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe('A username is 1 to 64 letters and digits, with no spaces or other signs. Change it and try again.');
    expect(await page.getByLabel('New username').inputValue()).toBe('bob smith!');
    expect(await page.getByLabel('New password').inputValue()).toBe('Bob12345');
    expect(await checkLook(page, 'operator-admin-refused')).toEqual([]);

    // Add with role guest: listed with that role, and the API says the same.
    await page.getByLabel('New username').fill('bob');
    await page.getByLabel('New password').fill('Bob12345');
    await page.getByLabel('Role', { exact: true }).selectOption('guest');
    await page.getByRole('button', { name: 'Add user' }).click();
    const role = page.getByLabel('Role of bob');
    await role.waitFor();
    await page.getByRole('status').getByText('bob added as guest.').waitFor();
    expect(await role.inputValue()).toBe('guest');
    expect(await api('GET', '/api/users/list_users')).toContain('bob');
    expect(await api('GET', '/api/users/role/bob')).toBe('guest');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-admin')).toEqual([]);
    // The same name again: said in words, not as user_exists.
    await page.getByLabel('New username').fill('bob');
    await page.getByLabel('New password').fill('Bob12345');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('alert').getByText('A user with this name exists already. Choose another username.').waitFor();
    expect(await page.getByLabel('New username').inputValue()).toBe('bob');

    // Tags: saved through the page, read back through the API.
    // fill waits until the field is enabled, that is until bob's stored tags have loaded.
    await page.getByRole('textbox', { name: 'Tags of bob', exact: true }).fill('op, site-1');
    await page.getByRole('button', { name: 'Save tags of bob' }).click();
    await page.getByRole('status').getByText('Tags of bob saved.').waitFor();
    expect(await api('GET', '/api/tags/user/bob')).toEqual(['op', 'site-1']);

    await role.selectOption('admin');
    await page.getByRole('status').getByText('bob is now admin.').waitFor();
    expect(await api('GET', '/api/users/role/bob')).toBe('admin');
    expect(await api('GET', '/api/users/rights/bob')).toEqual(['read', 'write', 'execute']);

    // Rights apart from the role: take execute away, then refuse to leave none.
    const rights = page.getByRole('group', { name: 'Rights of bob' });
    await rights.getByRole('checkbox', { name: 'execute' }).click();
    await page.getByRole('status').getByText('bob now has read, write.').waitFor();
    expect(await api('GET', '/api/users/rights/bob')).toEqual(['read', 'write']);
    await rights.getByRole('checkbox', { name: 'write' }).click();
    await page.getByRole('status').getByText('bob now has read.').waitFor();
    await rights.getByRole('checkbox', { name: 'read' }).click();
    await page.getByRole('alert').getByText('bob needs at least one right.').waitFor();
    expect(await api('GET', '/api/users/rights/bob')).toEqual(['read']);
    expect(await rights.getByRole('checkbox', { name: 'read' }).isChecked()).toBe(true);
    // At 390 px each box stays beside its name, not above it.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 800 });
    const beside = await rights.locator('label').evaluateAll((labels) =>
      labels.map((label) => {
        const box = label.querySelector('input')?.getBoundingClientRect();
        const whole = label.getBoundingClientRect();
        return box !== undefined && whole.height < box.height * 2 && whole.width > box.width * 2;
      }),
    );
    expect(beside).toEqual([true, true, true]);
    if (viewport) await page.setViewportSize(viewport);

    // Delete asks first; Cancel keeps the user.
    await page.getByRole('button', { name: 'Delete bob' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete bob' }).click();
    await page.getByRole('button', { name: 'Confirm delete bob' }).click();
    await page.getByRole('status').getByText('bob deleted.').waitFor();
    await role.waitFor({ state: 'detached' });
    expect(await api('GET', '/api/users/list_users')).not.toContain('bob');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Chromium logs the two refused additions (400); nothing else may fail.
    expect(errors.splice(0).filter((e) => !/status of 400/.test(e))).toEqual([]);

    // Bookmarks: saved and deleted through the page, the API agrees; a console path is a link.
    await page.getByLabel('Bookmark title').fill('Alarms view');
    await page.getByLabel('Bookmark URL').fill('/alarms');
    await page.getByRole('button', { name: 'Save bookmark' }).click();
    await page.getByRole('link', { name: 'Alarms view' }).waitFor();
    expect(await api('GET', '/api/bookmark')).toEqual({ bookmarks: [{ title: 'Alarms view', url: '/alarms' }] });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Delete bookmark Alarms view' }).click();
    await page.getByRole('status').getByText('Bookmark Alarms view deleted.').waitFor();
    expect(await api('GET', '/api/bookmark')).toEqual({ bookmarks: [] });
    expect(errors).toEqual([]);

    // A taken name: the API's error in the alert region; Chromium logs that one 400 and nothing else.
    await page.getByLabel('New username').fill('admin');
    await page.getByLabel('New password').fill('Other123');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('alert').filter({ hasText: /exist/i }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([expect.stringContaining('status of 400')]);
    await page.close();
  });

  it('shows no Admin link to a user without the admin role', async () => {
    await api('POST', '/api/users/add_user', { username: 'carol', password: 'Carol123' });
    const { page, errors } = await openWatchedPage(nm.browser);
    page.setDefaultTimeout(5000);
    await page.goto(`${nm.server.url}/`);
    await page.getByLabel('Username').fill('carol');
    await page.getByLabel('Password').fill('Carol123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /^Alarms( \d+\+? new)?$/ }).waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
