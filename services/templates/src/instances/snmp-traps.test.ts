import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { describeWithPrograms, freeUdpPort } from '@triad/device-drivers/testing';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { buildTestApp } from '../test-support/templates-test-app.js';
import { trapTemplate } from '../test-support/trap-template.js';

const LINK_DOWN = '1.3.6.1.6.3.1.1.5.3';
const IF_INDEX_3 = '1.3.6.1.2.1.2.2.1.1.3';

/** Sends a v2c trap with Debian's `snmptrap`, asynchronously (the receiver runs in this process). */
function sendTrap(port: number, community: string, trapOid: string, ifIndex = 3): Promise<void> {
  const args = ['-v', '2c', '-c', community, `127.0.0.1:${port}`, '4242', trapOid, IF_INDEX_3, 'i', String(ifIndex)];
  return new Promise((resolve, reject) =>
    execFile('snmptrap', args, { env: { ...process.env, MIBS: '', MIBDIRS: '/nonexistent' } }, (error) =>
      error ? reject(new Error(`snmptrap failed: ${error.message}`)) : resolve(),
    ),
  );
}

describeWithPrograms(
  'SNMP traps into device values and alarms (TRIAD_SNMP_TRAP_PORT)',
  ['snmptrap'],
  'apt-get install snmp',
  () => {
    let app: FastifyInstance;
    let port: number;
    let id: string;
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
    const values = async () =>
      (await app.inject(`/devices/${id}/values`)).json<{ values: { datapointId: string; value: unknown }[] }>().values;

    beforeAll(async () => {
      port = await freeUdpPort();
      app = await buildTestApp(database, { snmpTrapPort: port, snmpTrapAddress: '127.0.0.1' });
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: trapTemplate('Trap Sink') });
      expect(stored.statusCode, stored.body).toBe(201);
      const created = await app.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name: 'switch',
          templateId: 'Trap Sink',
          templateVersion: '1.0.0',
          variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'trap-community' },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      id = created.json<{ id: string }>().id;
    });
    afterAll(async () => {
      await app?.close();
      await database.close();
    });

    it('takes a trap from the device with its community as the datapoint value, and raises the alarm', async () => {
      // The receiver binds when the device's collector registers; send until one is taken.
      await expect
        .poll(
          async () => {
            await sendTrap(port, 'trap-community', LINK_DOWN);
            return (await values()).find((v) => v.datapointId === 'linkDown')?.value;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toMatchObject({ trapOid: LINK_DOWN, kind: 'trap', upTime: 4242, varbinds: { [IF_INDEX_3]: 3 } });
      await expect
        .poll(async () => (await app.inject(`/devices/${id}/alarms`)).json<{ alarms: { text: string }[] }>().alarms, {
          timeout: 5_000,
        })
        .toMatchObject([{ text: 'Link down' }]);
    });

    it('drops a trap with a community the device does not have, and one of another OID maps to nothing', async () => {
      const before = await values();
      expect(before).not.toEqual([]);
      await sendTrap(port, 'not-the-community', LINK_DOWN, 7);
      await sendTrap(port, 'trap-community', '1.3.6.1.6.3.1.1.5.4', 8);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await values()).toEqual(before);
    });
  },
);
