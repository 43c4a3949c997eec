/**
 * The operator's first minutes as `npm start` gives them: the node manager with its demo Erlang
 * node (a real `erl`, started and managed by the service), signed in through the page. The node
 * is UP and its SASL alarm is acknowledged through the console.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeInBrowser, openWatchedPage, seriousAxeViolations } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const erl = spawnSync('sh', ['-c', 'command -v erl'], { stdio: 'ignore' }).status === 0;

if (!erl && process.env['TRIAD_REQUIRE_SERVICES'] === '1')
  describe('operator console with the demo Erlang node', () => {
    it('requires erl because TRIAD_REQUIRE_SERVICES=1', () => {
      throw new Error('erl is missing: apt-get install erlang-base erlang-os-mon');
    });
  });
else if (!erl)
  describe.skip('operator console with the demo Erlang node (erl is missing: apt-get install erlang-base)', () => {});
else
  describeInBrowser('operator console with the demo Erlang node', () => {
    const nm = useNodeManagerConsole('console-demo-node-', undefined, { demo: true });

    it('signs in, sees the demo node UP and acknowledges its alarm', async () => {
      const { page, errors } = await openWatchedPage(nm.browser);
      await page.goto(`${nm.server.url}/`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('Admin123');
      await page.getByRole('button', { name: 'Sign in' }).click();

      const row = page.getByRole('row', { name: /triad_demo_/ });
      await row.getByRole('cell', { name: 'UP', exact: true }).waitFor({ timeout: 20_000 });

      await page.getByRole('link', { name: /^Alarms( \d+\+? new)?$/ }).click();
      const alarm = page.getByRole('row', { name: /triad_demo_alarm/ });
      await alarm.getByRole('button', { name: 'Acknowledge' }).click();
      await alarm.getByRole('button', { name: 'Unacknowledge' }).waitFor();
      const listed = (await nm.api('GET', '/api/alarm?tags=all')) as {
        alarms: { state: string; ackInfo: { user: string } | null }[];
      };
      const demo = listed.alarms.find((a) => JSON.stringify(a).includes('triad_demo_alarm'));
      expect(demo).toMatchObject({ state: 'acknowledged', ackInfo: { user: 'admin' } });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.close();
      expect(errors).toEqual([]);
    }, 60_000);
  });
