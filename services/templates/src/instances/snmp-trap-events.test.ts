import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { describeWithPrograms, freeUdpPort } from '@triad/device-drivers/testing';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { buildTestApp } from '../test-support/templates-test-app.js';
import { trapTemplate } from '../test-support/trap-template.js';

const LINK_DOWN = '1.3.6.1.6.3.1.1.5.3';
const LINK_UP = '1.3.6.1.6.3.1.1.5.4';
const IF_INDEX_3 = '1.3.6.1.2.1.2.2.1.1.3';
const IF_DESCR_3 = '1.3.6.1.2.1.2.2.1.2.3';

/** Runs Debian's `snmptrap` or `snmpinform` (asynchronously: the receiver runs in this process). */
function send(
  program: 'snmptrap' | 'snmpinform',
  port: number,
  community: string,
  trapOid: string,
  varbinds: string[],
) {
  const args = ['-v', '2c', '-c', community, '-t', '1', '-r', '0', `127.0.0.1:${port}`, '4242', trapOid, ...varbinds];
  return new Promise<void>((resolve, reject) =>
    execFile(program, args, { env: { ...process.env, MIBS: '', MIBDIRS: '/nonexistent' } }, (error) =>
      error ? reject(new Error(`${program} failed: ${error.message}`)) : resolve(),
    ),
  );
}

interface TrapEvent {
  type: string;
  kind: string;
  version: string;
  source: string;
  trapOid: string;
  trapName?: string;
  upTime: number | null;
  varbinds: { oid: string; name?: string; value: string }[];
  varbindsOmitted: number;
  notStored: number;
}

describeWithPrograms(
  'SNMP traps and informs as device events',
  ['snmptrap', 'snmpinform'],
  'apt-get install snmp',
  () =>
    describeEachDatabase<TemplatesDatabase>('trap events', (getDb) => {
      let app: FastifyInstance;
      let port: number;
      let id: string;
      const traps = async () =>
        (await app.inject(`/devices/${id}/events?limit=1000`))
          .json<{ events: TrapEvent[] }>()
          .events.filter((e) => e.type === 'trap')
          .reverse();

      beforeAll(async () => {
        port = await freeUdpPort();
        app = await buildTestApp(getDb(), { snmpTrapPort: port, snmpTrapAddress: '127.0.0.1' });
        expect(
          (await app.inject({ method: 'POST', url: '/templates', payload: trapTemplate('Trap Sink') })).statusCode,
        ).toBe(201);
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
      });

      it('stores a v2c trap with its OID and varbinds named from the MIB modules', async () => {
        // The receiver binds when the device's collector registers; send until one is taken.
        await expect
          .poll(
            async () => {
              await send('snmptrap', port, 'trap-community', LINK_DOWN, [IF_INDEX_3, 'i', '3']);
              return (await traps()).length;
            },
            { timeout: 15_000, interval: 300 },
          )
          .toBeGreaterThan(0);
        const [first] = await traps();
        expect(first).toMatchObject({
          kind: 'trap',
          version: '2c',
          source: '127.0.0.1',
          trapOid: LINK_DOWN,
          trapName: 'IF-MIB::linkDown',
          upTime: 4242,
          varbinds: [{ oid: IF_INDEX_3, name: 'IF-MIB::ifIndex.3', value: '3' }],
          varbindsOmitted: 0,
          notStored: 0,
        });
      });

      it('stores an inform (acknowledged: snmpinform succeeds) and a trap no datapoint maps', async () => {
        const before = (await traps()).length;
        await send('snmpinform', port, 'trap-community', LINK_UP, [IF_DESCR_3, 's', 'eth2']);
        await expect.poll(async () => (await traps()).length, { timeout: 5_000 }).toBe(before + 1);
        expect((await traps()).at(-1)).toMatchObject({
          kind: 'inform',
          trapName: 'IF-MIB::linkUp',
          varbinds: [{ oid: IF_DESCR_3, name: 'IF-MIB::ifDescr.3', value: 'eth2' }],
        });
      });

      it('bounds a large notification: 16 varbinds kept, long values cut to 120 characters', async () => {
        const before = (await traps()).length;
        const varbinds: string[] = [];
        for (let i = 1; i <= 20; i++) varbinds.push(`1.3.6.1.4.1.99999.${i}`, 's', i === 1 ? 'x'.repeat(300) : `v${i}`);
        await send('snmptrap', port, 'trap-community', '1.3.6.1.4.1.99999.0.1', varbinds);
        await expect.poll(async () => (await traps()).length, { timeout: 5_000 }).toBe(before + 1);
        const event = (await traps()).at(-1)!;
        // snmptranslate -Os names it SNMPv2-SMI::enterprises.99999.0.1; the first module read that assigns it wins.
        expect(event.trapName).toMatch(/^[A-Za-z0-9-]+::enterprises\.99999\.0\.1$/);
        expect(event.varbinds).toHaveLength(16);
        expect(event.varbindsOmitted).toBe(4);
        expect(event.varbinds[0]?.value).toHaveLength(120);
        expect(event.varbinds[0]?.value.endsWith('…')).toBe(true);
      });

      it('stores nothing for a wrong community and counts it on /metrics', async () => {
        const before = (await traps()).length;
        await send('snmptrap', port, 'not-the-community', LINK_DOWN, [IF_INDEX_3, 'i', '7']);
        await expect
          .poll(async () => (await app.inject('/metrics')).body.split('\n').filter((l) => l.includes('snmp')), {
            timeout: 5_000,
          })
          .toContainEqual('triad_snmp_notifications_total{outcome="wrong_credentials"} 1');
        expect((await traps()).length).toBe(before);
        expect((await app.inject('/metrics')).body).toMatch(/triad_snmp_notifications_total\{outcome="taken"\} [1-9]/);
      });
    }),
);
