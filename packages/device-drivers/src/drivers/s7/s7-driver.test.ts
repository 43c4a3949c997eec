import { createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointRequest, PollingDriver } from '../../driver.js';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice, expectDownAndBackUp } from '../../test-support/collect-device.js';
import { countingSnap7Clients } from '../../test-support/counting-snap7-client.js';
import { freePort } from '../../test-support/real-server.js';
import { describeWithSnap7 } from '../../test-support/describe-with-snap7.js';
import { S7TestServer } from '../../test-support/s7-server.js';
import { alarmWhen } from '../../test-support/snmp-templates.js';
import { createS7Driver, s7Driver } from './s7-driver.js';

/** [datapointId, originAddress, originDataType, expected] for DB1 as `db1()` lays it out, and M, I, Q. */
const TYPED: [string, string, string, unknown][] = [
  ['bit0', 'DB1.DBX0.0', 'BOOL', true],
  ['bit1', 'DB1.DBX0.1', 'BOOL', false],
  ['bit2', 'DB1.DBX0.2', 'bool', true],
  ['byte', 'DB1.DBB1', 'BYTE', 0xab],
  ['sint', 'DB1.DBB2', 'SINT', -5],
  ['usint', 'DB1.DBB3', 'USINT', 200],
  ['real', 'DB1.DBD4', 'REAL', 42.5],
  ['char', 'DB1.DBB8', 'CHAR', 'Z'],
  ['word', 'DB1.DBW10', 'WORD', 0xbeef],
  ['int', 'DB1.DBW12', 'INT', -1234],
  ['uint', 'DB1.DBW14', 'UINT', 54321],
  ['dword', 'DB1.DBD16', 'DWORD', 0xdeadbeef],
  ['dint', 'DB1.DBD20', 'DINT', -123456789],
  ['udint', 'DB1.DBD24', 'UDINT', 3_000_000_000],
  ['lreal', 'DB1.DBD28', 'LREAL', 12345.6789],
  ['string', 'DB1.DBS36.10', 'STRING', 'Triad'],
  ['m03', 'M0.3', 'BOOL', true],
  ['mw2', 'MW2', 'INT', 777],
  ['md4', 'MD4', 'REAL', 1.5],
  ['i01', 'I0.1', 'BOOL', true],
  ['e01', 'E0.1', 'BOOL', true],
  ['iw2', 'IW2', 'UINT', 300],
  ['q07', 'Q0.7', 'BOOL', true],
  ['a07', 'A0.7', 'BOOL', true],
  ['qd4', 'QD4', 'DINT', -99],
];

function db1(): Buffer {
  const b = Buffer.alloc(64);
  b[0] = 0b101;
  b.writeUInt8(0xab, 1);
  b.writeInt8(-5, 2);
  b.writeUInt8(200, 3);
  b.writeFloatBE(42.5, 4);
  b.write('Z', 8, 'latin1');
  b.writeUInt16BE(0xbeef, 10);
  b.writeInt16BE(-1234, 12);
  b.writeUInt16BE(54321, 14);
  b.writeUInt32BE(0xdeadbeef, 16);
  b.writeInt32BE(-123456789, 20);
  b.writeUInt32BE(3_000_000_000, 24);
  b.writeDoubleBE(12345.6789, 28);
  b.writeUInt8(10, 36);
  b.writeUInt8(5, 37);
  b.write('Triad', 38, 'latin1');
  b.writeFloatBE(20, 48);
  return b;
}

const bytes = (size: number, write: (b: Buffer) => void) => {
  const b = Buffer.alloc(size);
  write(b);
  return b;
};
const float = (value: number) => bytes(4, (b) => b.writeFloatBE(value));

function point(datapointId: string, originAddress: string, originDataType: string): PointRequest {
  return {
    datapointSetId: 'test',
    datapointId,
    originAddress,
    originDataType,
    dataType: 'DOUBLE',
    receiveMode: 'polling',
    pollingGroup: '5s',
  };
}

/** A driver whose node-snap7 clients count the read requests they send. */
function countingDriver(port: number, extra: Record<string, unknown> = {}, log?: (message: string) => void) {
  const counter = countingSnap7Clients();
  const driver = createS7Driver(counter.newClient).create({
    config: {
      s7basicConfig: { address: '127.0.0.1', rack: 0, slot: 2 },
      s7extraConfig: { port, requestTimeout: 1000, connectionTimeout: 1000, ...extra },
    },
    origin: '127.0.0.1',
    ...(log === undefined ? {} : { log }),
  });
  if (driver.kind !== 'polling') throw new Error('the S7 driver polls');
  return { driver, counter };
}

async function readValues(driver: PollingDriver, points: PointRequest[]) {
  const result = await driver.read({ points, tables: [] }, AbortSignal.timeout(10_000));
  return Object.fromEntries(
    result.updates.map((u) => ('datapointId' in u ? [u.datapointId, [u.rawValue, u.quality]] : ['?', []])),
  ) as Record<string, [unknown, string]>;
}

const registry = () => new DriverRegistry([s7Driver]);

/** The S7 starter with its datapoints replaced, each polled in the 5 s group, one alarm optional. */
function template(datapoints: { id: string; address: string; type: string; alarm?: string }[]): DeviceTemplate {
  const base = createStarterTemplate('s7') as unknown as DeviceTemplate;
  const [set] = base.datapointSets ?? [];
  const addressConfig = set?.datapoints[0]?.addressConfig;
  if (set === undefined || addressConfig === undefined) throw new Error('the S7 starter changed');
  set.datapoints = datapoints.map(({ id, address, type, alarm }) => ({
    commonConfig: { datapointId: id, datapointType: 'DATAPOINT', alias: id },
    addressConfig: { ...addressConfig, dataType: 'DOUBLE', originAddress: address, originDataType: type },
    ...(alarm === undefined ? {} : { alertConfig: { evaluations: [alarmWhen(402, alarm, `${id} alarm`)] } }),
  }));
  return base;
}

/** A collector on one device at 127.0.0.1:`port`, polling every `periodMs` (faster than any polling group). */
function collect(device: DeviceTemplate, port: number, periodMs = 200) {
  const settings = { s7extraConfig: { port, requestTimeout: 1000, connectionTimeout: 1000 } };
  const binding = { variables: { DCP_IPAddress: '127.0.0.1' }, drivers: { 'svc-ds-drv-s7': settings } };
  const run = collectDevice(device, binding, registry(), { periodMs });
  const alarms = () => run.events.filter((e) => e.type === 'alarm-raised' || e.type === 'alarm-cleared');
  return { ...run, alarms };
}

describeWithSnap7('svc-ds-drv-s7 against a real S7 server (snap7)', () => {
  let server: S7TestServer;

  beforeAll(async () => {
    server = await S7TestServer.start({
      db: {
        1: db1(),
        // 600 bytes: more than one answer of a 480-byte PDU holds.
        3: bytes(600, (b) => {
          for (let i = 0; i < 300; i++) b.writeUInt16BE(i, i * 2);
        }),
      },
      M: bytes(16, (b) => {
        b[0] = 0b1000;
        b.writeInt16BE(777, 2);
        b.writeFloatBE(1.5, 4);
      }),
      I: bytes(8, (b) => {
        b[0] = 0b10;
        b.writeUInt16BE(300, 2);
      }),
      Q: bytes(8, (b) => {
        b[0] = 0x80;
        b.writeInt32BE(-99, 4);
      }),
    });
  }, 30_000);

  afterAll(async () => {
    await server.stop();
  });

  it('decodes every data type from DB, merker, input and output areas in one request', async () => {
    const { driver, counter } = countingDriver(server.port);
    const values = await readValues(
      driver,
      TYPED.map(([id, address, type]) => point(id, address, type)),
    );
    await driver.close();
    for (const [id, , type, expected] of TYPED) expect([id, type, values[id]]).toEqual([id, type, [expected, 'good']]);
    // DB1 bytes 0-47, M 0-7, I 0-3, Q 0-7: four items of one request.
    expect(counter).toMatchObject({ requests: 1, items: [4], connects: 1 });
  });

  it('reads long ranges in pieces that fit the PDU, and keeps one connection', async () => {
    const { driver, counter } = countingDriver(server.port);
    const points = Array.from({ length: 60 }, (_, i) => point(`w${i}`, `DB3.DBW${i * 10}`, 'UINT'));
    const first = await readValues(driver, points);
    expect(Object.values(first).every(([, quality]) => quality === 'good')).toBe(true);
    expect(first['w59']).toEqual([295, 'good']);
    // Bytes 0-591 of DB3: 462 + 130 bytes, two requests at the server's PDU of 480 bytes.
    expect(counter.requests).toBe(2);
    await readValues(driver, points);
    expect(counter).toMatchObject({ requests: 4, connects: 1 });
    await driver.close();

    // With no gap allowed each value is its own item: 20 items per request at most.
    const single = countingDriver(server.port, { maxGap: 0 });
    expect((await readValues(single.driver, points))['w7']).toEqual([35, 'good']);
    await single.driver.close();
    expect(single.counter.items).toEqual([20, 20, 20]);
  });

  it('makes only the datapoints the PLC refuses bad, and logs why', async () => {
    const logs: string[] = [];
    const { driver, counter } = countingDriver(server.port, {}, (message) => logs.push(message));
    const values = await readValues(driver, [
      point('ok', 'DB1.DBD4', 'REAL'),
      point('okToo', 'DB1.DBW12', 'INT'),
      point('pastEnd', 'DB1.DBD62', 'REAL'),
      point('outside', 'DB1.DBW70', 'INT'),
      point('noDb', 'DB2.DBW0', 'INT'),
      point('typo', 'DB1.DBQ0', 'INT'),
      point('wrongType', 'DB1.DBW0', 'REAL'),
      point('merker', 'MW2', 'INT'),
    ]);
    await driver.close();
    expect(values).toEqual({
      ok: [42.5, 'good'],
      okToo: [-1234, 'good'],
      pastEnd: [null, 'bad'],
      outside: [null, 'bad'],
      noDb: [null, 'bad'],
      typo: [null, 'bad'],
      wrongType: [null, 'bad'],
      merker: [777, 'good'],
    });
    expect(logs).toEqual([
      expect.stringContaining('test/typo: "DB1.DBQ0" is not an S7 address'),
      expect.stringContaining('test/wrongType: REAL is read from an address like DB1.DBD0'),
      expect.stringContaining('test/noDb (DB2.DBW0): the PLC does not have this item (no such DB?)'),
      expect.stringContaining('test/pastEnd (DB1.DBD62): the PLC says the address is out of range'),
      expect.stringContaining('test/outside (DB1.DBW70): the PLC says the address is out of range'),
    ]);
    // One request for all, then one for the values of the refused range DB1 62-71 one by one.
    expect(counter.requests).toBe(2);
  });

  it('sends s7security.password as the session password after connecting', async () => {
    const { driver } = countingDriver(server.port);
    const secured = createS7Driver().create({
      config: {
        s7basicConfig: { address: '127.0.0.1' },
        s7extraConfig: { port: server.port },
        s7security: { password: 'secret', accessProtection: true },
      },
      origin: '127.0.0.1',
    }) as PollingDriver;
    const before = server.security.length;
    expect(await readValues(driver, [point('x', 'DB1.DBD4', 'REAL')])).toEqual({ x: [42.5, 'good'] });
    expect(server.security.length).toBe(before);
    expect(await readValues(secured, [point('x', 'DB1.DBD4', 'REAL')])).toEqual({ x: [42.5, 'good'] });
    await Promise.all([driver.close(), secured.close()]);
    await expect.poll(() => server.security.slice(before)).toEqual([expect.stringMatching(/password/i)]);
  });

  it('reads the starter template of `triad templates init --driver s7`', async () => {
    const starter = createStarterTemplate('s7') as unknown as DeviceTemplate;
    const run = collect(starter, server.port);
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.last('tankLevel')).toMatchObject({ value: 42.5, quality: 'good' });
    expect(run.last('pumpRunning')).toMatchObject({ value: true, quality: 'good' });
    expect(run.states).toEqual([{ state: 'up', error: null }]);
  });

  it('raises an alarm when a written value crosses the threshold and clears it when it comes back', async () => {
    const device = template([
      { id: 'temperature', address: 'DB1.DBD48', type: 'REAL', alarm: 'datapoint.value > 80' },
      { id: 'level', address: 'DB1.DBD4', type: 'REAL' },
    ]);
    const run = collect(device, server.port);
    run.collector.start();
    try {
      await expect.poll(() => run.last('temperature')?.value, { timeout: 5_000 }).toBe(20);
      expect(run.alarms()).toEqual([]);
      await server.write('DB', 1, 48, float(85.5));
      await expect.poll(() => run.alarms().map((e) => e.type), { timeout: 5_000 }).toEqual(['alarm-raised']);
      expect(run.last('temperature')?.value).toBe(85.5);
      await server.write('DB', 1, 48, float(40));
      await expect
        .poll(() => run.alarms().map((e) => e.type), { timeout: 5_000 })
        .toEqual(['alarm-raised', 'alarm-cleared']);
      expect(run.last('temperature')?.value).toBe(40);
    } finally {
      await run.collector.stop();
      await server.write('DB', 1, 48, float(20));
    }
    expect(run.states.map((s) => s.state)).toEqual(['up']);
  });
});

describeWithSnap7('svc-ds-drv-s7 when the server goes away', () => {
  it('turns the device down (refused) when the server dies and up again when it is back', async () => {
    const server = await S7TestServer.start({ db: { 1: db1() } }, await freePort());
    const device = template([{ id: 'level', address: 'DB1.DBD4', type: 'REAL', alarm: 'datapoint.value === null' }]);
    await expectDownAndBackUp(collect(device, server.port), server, {
      originType: 'svc-ds-drv-s7',
      datapointId: 'level',
      value: 42.5,
    });
  }, 30_000);

  it('reconnects once, without failing a poll, when the server dropped the kept connection', async () => {
    const server = await S7TestServer.start({ db: { 1: db1() } }, await freePort());
    const { driver, counter } = countingDriver(server.port);
    try {
      expect(await readValues(driver, [point('x', 'DB1.DBD4', 'REAL')])).toEqual({ x: [42.5, 'good'] });
      await server.kill();
      await server.restart();
      expect(await readValues(driver, [point('x', 'DB1.DBD4', 'REAL')])).toEqual({ x: [42.5, 'good'] });
      expect(counter.connects).toBe(2);
    } finally {
      await driver.close();
      await server.stop();
    }
  }, 30_000);

  it('names a port nobody listens on refused', async () => {
    const { driver } = countingDriver(await freePort());
    await expect(
      driver.read({ points: [point('x', 'DB1.DBD4', 'REAL')], tables: [] }, AbortSignal.timeout(5_000)),
    ).rejects.toMatchObject({ name: 'DriverError', code: 'refused' });
    await driver.close();
  });
});

describeWithSnap7('svc-ds-drv-s7 against a server that is no PLC', () => {
  it('names a connection the other side closes after TCP a protocol error pointing at rack and slot', async () => {
    const closer = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    const { driver } = countingDriver((closer.address() as AddressInfo).port);
    try {
      await expect(
        driver.read({ points: [point('x', 'DB1.DBD4', 'REAL')], tables: [] }, AbortSignal.timeout(5_000)),
      ).rejects.toMatchObject({ code: 'protocol', message: expect.stringContaining('check rack and slot') as unknown });
    } finally {
      await driver.close();
      closer.close();
    }
  });
});

describe('s7Driver configuration', () => {
  it('names what is wrong without connecting', () => {
    const check = (config: Record<string, unknown>) =>
      s7Driver.check({ s7basicConfig: { address: '192.0.2.1', rack: 0, slot: 2 }, ...config });
    expect(check({})).toEqual([]);
    expect(s7Driver.secretKeys).toEqual(['s7security.password']);
    expect(check({ s7basicConfig: { address: '/{DCP_IPAddress}/' } })).toEqual([
      's7basicConfig.address still holds the placeholder /{DCP_IPAddress}/: give the device that variable',
    ]);
    expect(check({ s7basicConfig: { address: '192.0.2.1', slot: 40 } })).toEqual([
      's7basicConfig.slot must be an integer from 0 to 31; it is 40',
    ]);
    expect(check({ s7extraConfig: { port: 0 } })).toEqual([
      's7extraConfig.port must be an integer from 1 to 65535; it is 0',
    ]);
    expect(check({ s7extraConfig: { connectionType: 'XX' } })).toEqual([
      's7extraConfig.connectionType must be PG, OP or BASIC',
    ]);
    expect(check({ s7security: { accessProtection: 'yes' } })).toEqual([
      's7security.accessProtection must be true or false',
    ]);
  });
});
