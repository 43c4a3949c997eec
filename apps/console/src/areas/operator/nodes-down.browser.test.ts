/**
 * A crashed node in a real browser: a real `erl` node, managed by the node manager, killed with
 * SIGKILL. The list shows it DOWN (icon and word, red) with a notice that names it, and it stays
 * DOWN after EPMD has forgotten it: a crash is not a stop (docs/decisions/0038). A node that never
 * ran reads STOPPED, without the notice.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLook, describeInBrowser, openWatchedPage } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const erl = spawnSync('sh', ['-c', 'command -v erl'], { stdio: 'ignore' }).status === 0;
const suite = erl || process.env['TRIAD_REQUIRE_SERVICES'] === '1' ? describeInBrowser : describe.skip;

suite('a crashed node in Chromium (needs erl: apt-get install erlang-base)', () => {
  const alive = `console_crash_${process.pid}`;
  const nodeName = `${alive}@${hostname().split('.')[0] ?? 'localhost'}`;
  let child: ChildProcess | undefined;
  const nm = useNodeManagerConsole(
    'console-down-',
    async ({ api }) => {
      child = spawn('erl', ['-sname', alive, '-setcookie', 'crashcookie', '-noshell', '-noinput'], {
        stdio: 'ignore',
        env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0' },
      });
      // Never started: STOPPED (EPMD on this host answers, the node is not there).
      await api('POST', '/api/topo/action/add-node', { name: `never_ran_${process.pid}@localhost`, cookie: 'c' });
      for (let i = 0; i < 100; i++) {
        const added = (await api('POST', '/api/topo/action/add-node', { name: nodeName, cookie: 'crashcookie' })) as {
          state?: string;
          error?: string;
        };
        if (added.state !== undefined) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    { env: { TRIAD_NODE_DOWN_ALARM_AFTER_MS: '86400000' } },
  );

  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('shows the killed node DOWN in red with a notice, the never-started one STOPPED', async () => {
    const { page, errors } = await openWatchedPage(nm.browser);
    page.setDefaultTimeout(15_000);
    await page.goto(`${nm.server.url}/nodes`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const row = page.getByRole('row', { name: new RegExp(nodeName) });
    // A loaded machine may take a while to boot erl; the node manager retries until it is UP.
    await row.getByRole('cell', { name: 'UP', exact: true }).waitFor({ timeout: 40_000 });
    const never = page.getByRole('row', { name: /never_ran_/ });
    await never.getByRole('cell', { name: 'STOPPED', exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    child?.kill('SIGKILL');
    await row.getByRole('cell', { name: 'DOWN', exact: true }).waitFor();
    const notice = page.getByRole('alert');
    await notice.getByText('1 node is down').waitFor();
    expect(await notice.getByRole('link', { name: nodeName }).count()).toBe(1);
    // EPMD forgets a killed node within moments; the node stays DOWN, never STOPPED.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await row.getByRole('cell', { name: 'DOWN', exact: true }).count()).toBe(1);
    const listed = (await nm.api('GET', '/api/topo/node')) as { name: string; state: string }[];
    expect(listed.find((n) => n.name === nodeName)?.state).toBe('DOWN');
    expect(await row.locator('.state-DOWN').evaluate((e) => getComputedStyle(e).color)).not.toBe(
      await never.locator('.state-STOPPED').evaluate((e) => getComputedStyle(e).color),
    );
    expect(await checkLook(page, 'operator-nodes-down')).toEqual([]);

    await notice.getByRole('link', { name: nodeName }).click();
    await page.getByRole('heading', { name: nodeName }).waitFor();
    await page.getByRole('alert').getByText('1 node is down').waitFor();
    expect(await checkLook(page, 'operator-node-down')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
