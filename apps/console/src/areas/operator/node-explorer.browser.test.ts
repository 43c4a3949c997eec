/**
 * Inside a node from its page, in a real browser: the node manager with its demo Erlang node (a
 * real `erl`), a process with a long message queue made on it, read by the operator through the
 * explorer: the top list in each order, one process in detail, and the ETS tables.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ErlangExpression } from '@triad/node-manager-service';
import { checkLook, describeInBrowser, openWatchedPage } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const erl = spawnSync('sh', ['-c', 'command -v erl'], { stdio: 'ignore' }).status === 0;

if (!erl && process.env['TRIAD_REQUIRE_SERVICES'] === '1')
  describe('node explorer in Chromium', () => {
    it('requires erl because TRIAD_REQUIRE_SERVICES=1', () => {
      throw new Error('erl is missing: apt-get install erlang-base erlang-os-mon');
    });
  });
else if (!erl) describe.skip('node explorer in Chromium (erl is missing: apt-get install erlang-base)', () => {});
else
  describeInBrowser('node explorer in Chromium', () => {
    const nm = useNodeManagerConsole('console-explorer-', undefined, { demo: true });

    it('reads the top processes by message queue, one process in detail, and the ETS tables', async () => {
      const listed = async () => (await nm.api('GET', '/api/topo/node')) as { id: string; state: string }[];
      let nodeId = '';
      for (let i = 0; i < 200 && !nodeId; i++) {
        nodeId = (await listed()).find((n) => n.state === 'UP')?.id ?? '';
        if (!nodeId) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(nodeId).not.toBe('');
      const rpc = nm.server.core.connector.rpc?.bind(nm.server.core.connector);
      if (!rpc) throw new Error('the connector has no rpc');
      // A registered process that never reads: 700 messages wait in its queue.
      await new ErlangExpression(
        'P = spawn(fun() -> receive stop -> ok end end), register(console_busy_worker, P),' +
          ' [P ! {job, N} || N <- lists:seq(1, 700)], ok.',
      ).evaluate({ rpc }, nodeId);

      const { page, errors } = await openWatchedPage(nm.browser);
      page.setDefaultTimeout(10_000);
      await page.goto(`${nm.server.url}/nodes/${nodeId}`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('Admin123');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const inside = page.getByRole('region', { name: 'Inside the node' });
      await inside.getByRole('button', { name: 'Read top processes' }).waitFor();
      await inside.getByRole('button', { name: 'Read top processes' }).isEnabled();

      await inside.getByLabel('Order').selectOption('message_queue_len');
      await inside.getByRole('button', { name: 'Read top processes' }).click();
      const table = inside.getByRole('table', { name: 'Top processes by message queue' });
      await table.waitFor();
      await inside
        .getByRole('status')
        .getByText(/^\d+ of \d+ processes, by message queue, read at /)
        .waitFor();
      const first = table.getByRole('row').nth(1);
      expect(await first.getByRole('rowheader').innerText()).toBe('console_busy_worker');
      expect(await first.getByRole('cell').nth(2).innerText()).toBe('700');

      await first.getByRole('button', { name: 'Details of console_busy_worker' }).click();
      const details = inside.getByRole('region', { name: /^console_busy_worker/ });
      await details.waitFor();
      expect(await details.getByText('waiting', { exact: true }).count()).toBe(1);
      expect(await details.getByRole('heading', { name: 'Stack trace' }).count()).toBe(1);

      await inside.getByRole('button', { name: 'Read ETS tables' }).click();
      const ets = inside.getByRole('table', { name: 'ETS tables, largest first' });
      await ets.waitFor();
      const acTab = ets.getByRole('row', { name: /ac_tab/ });
      expect(await acTab.getByRole('cell').first().innerText()).toBe('application_controller');

      expect(await checkLook(page, 'operator-node-explorer')).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);
  });
