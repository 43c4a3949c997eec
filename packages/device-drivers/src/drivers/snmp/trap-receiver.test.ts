import { execFile } from 'node:child_process';
import snmp from 'net-snmp';
import { afterEach, expect, it } from 'vitest';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { freeUdpPort } from '../../test-support/snmpd-server.js';
import { SnmpTrapReceiver, type ReceivedTrap } from './trap-receiver.js';

const V3_USER: snmp.User = {
  name: 'traps3',
  level: snmp.SecurityLevel.authPriv,
  authProtocol: snmp.AuthProtocols.sha,
  authKey: 'triad-auth-pass',
  privProtocol: snmp.PrivProtocols.aes,
  privKey: 'triad-priv-pass',
};
const LINK_DOWN = '1.3.6.1.6.3.1.1.5.3';

/**
 * Runs a Net-SNMP command line tool without MIB files (numeric OIDs only), asynchronously: the
 * receiver answering an inform runs in this process.
 */
function run(tool: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, MIBS: '', MIBDIRS: '/nonexistent' };
    execFile(tool, args, { env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({
        status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
        output: stdout + stderr,
      }),
    );
  });
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
};

describeWithPrograms(
  'SNMP trap receiver against snmptrap and snmpinform',
  ['snmptrap', 'snmpinform'],
  'apt-get install snmp',
  () => {
    let receiver: SnmpTrapReceiver | undefined;
    afterEach(async () => {
      await receiver?.close();
    });

    async function start(port: number, device: { community?: string; user?: string } | undefined, logs: string[] = []) {
      const traps: ReceivedTrap[] = [];
      receiver = new SnmpTrapReceiver({
        port,
        address: '127.0.0.1',
        sources: (address) =>
          address === '127.0.0.1' && device !== undefined
            ? {
                deviceId: 'dev-1',
                communities: device.community ? [device.community] : [],
                users: device.user ? [device.user] : [],
              }
            : undefined,
        credentials: { communities: ['public'], users: [V3_USER] },
        onTrap: (trap) => traps.push(trap),
        log: (message) => logs.push(message),
      });
      await receiver.start();
      return traps;
    }

    it('turns a v2c trap from a known device into a trap with its OID, uptime and varbinds', async () => {
      const port = await freeUdpPort();
      const traps = await start(port, { community: 'public' });
      const sent = await run('snmptrap', [
        '-v',
        '2c',
        '-c',
        'public',
        `127.0.0.1:${port}`,
        '4242',
        LINK_DOWN,
        '1.3.6.1.2.1.2.2.1.1.3',
        'i',
        '3',
        '1.3.6.1.2.1.2.2.1.2.3',
        's',
        'eth1',
      ]);
      expect(sent.status).toBe(0);
      await waitFor(() => traps.length > 0);
      expect(traps).toEqual([
        {
          deviceId: 'dev-1',
          source: '127.0.0.1',
          version: '2c',
          kind: 'trap',
          trapOid: LINK_DOWN,
          upTime: 4242,
          varbinds: [
            { oid: '1.3.6.1.2.1.2.2.1.1.3', value: 3 },
            { oid: '1.3.6.1.2.1.2.2.1.2.3', value: 'eth1' },
          ],
        },
      ]);
    });

    it('acknowledges a v3 authPriv inform, so snmpinform succeeds', async () => {
      const port = await freeUdpPort();
      const traps = await start(port, { user: 'traps3' });
      const sent = await run('snmpinform', [
        '-v',
        '3',
        '-u',
        'traps3',
        '-l',
        'authPriv',
        '-a',
        'SHA',
        '-A',
        'triad-auth-pass',
        '-x',
        'AES',
        '-X',
        'triad-priv-pass',
        '-r',
        '0',
        '-t',
        '2',
        `127.0.0.1:${port}`,
        '',
        LINK_DOWN,
      ]);
      expect(sent.output).toBe('');
      expect(sent.status).toBe(0);
      await waitFor(() => traps.length > 0);
      expect(traps[0]).toMatchObject({ version: '3', kind: 'inform', trapOid: LINK_DOWN });
    });

    it('drops traps of unknown sources and with a community the device lacks, logging once a minute', async () => {
      const port = await freeUdpPort();
      const logs: string[] = [];
      const traps = await start(port, undefined, logs);
      for (let i = 0; i < 3; i++)
        await run('snmptrap', ['-v', '2c', '-c', 'public', `127.0.0.1:${port}`, '', LINK_DOWN]);
      await waitFor(() => receiver!.stats.unknownSource === 3);
      expect(traps).toEqual([]);
      expect(receiver!.stats.unknownSource).toBe(3);
      expect(logs).toEqual([
        "SNMP trap receiver: a notification from 127.0.0.1, which is no device's address, was dropped",
      ]);
      await receiver!.close();
      const other = await start(port, { community: 'private' });
      await run('snmptrap', ['-v', '2c', '-c', 'public', `127.0.0.1:${port}`, '', LINK_DOWN]);
      await waitFor(() => receiver!.stats.wrongCredentials === 1);
      expect(receiver!.stats.wrongCredentials).toBe(1);
      expect(other).toEqual([]);
    });

    it('drops datagrams over the size limit and beyond the rate per source before decoding them', async () => {
      const port = await freeUdpPort();
      receiver = new SnmpTrapReceiver({
        port,
        address: '127.0.0.1',
        sources: () => ({ deviceId: 'dev-1', communities: ['public'], users: [] }),
        credentials: { communities: ['public'], users: [] },
        onTrap: () => undefined,
        limits: { maxPacketBytes: 200, perSourcePerSecond: 2 },
        now: () => 1_000_000,
      });
      await receiver.start();
      await run('snmptrap', [
        '-v',
        '2c',
        '-c',
        'public',
        `127.0.0.1:${port}`,
        '',
        LINK_DOWN,
        '1.3.6.1.2.1.1.5.0',
        's',
        'x'.repeat(300),
      ]);
      for (let i = 0; i < 3; i++)
        await run('snmptrap', ['-v', '2c', '-c', 'public', `127.0.0.1:${port}`, '', LINK_DOWN]);
      await waitFor(() => receiver!.stats.rateLimited === 1);
      expect(receiver.stats).toMatchObject({ tooLarge: 1, received: 2, rateLimited: 1 });
    });
  },
);
