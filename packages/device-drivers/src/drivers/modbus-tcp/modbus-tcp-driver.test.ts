import { createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';
import modbusSerial from 'modbus-serial';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PointRequest, PollingDriver } from '../../driver.js';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice, expectDownAndBackUp } from '../../test-support/collect-device.js';
import { describeWithPymodbus, ModbusTestServer } from '../../test-support/modbus-server.js';
import { freePort } from '../../test-support/real-server.js';
import { modbusTcpDriver } from './modbus-tcp-driver.js';

/** The registers a value takes, high word first, each register high byte first. */
function registers(size: number, write: (buffer: Buffer) => void): number[] {
  const buffer = Buffer.alloc(size);
  write(buffer);
  return Array.from({ length: size / 2 }, (_, i) => buffer.readUInt16BE(i * 2));
}

const swapped = (words: number[]) => [...words].reverse();
const byteSwapped = (words: number[]) => words.map((w) => ((w & 0xff) << 8) | (w >> 8));

/** The registers of a value given high word first (ABCD) in each of the other three byte orders. */
function orders(kind: string, words: number[], value: unknown): [string, number[], unknown][] {
  return [
    [`${kind}-cdab`, swapped(words), value],
    [`${kind}-dcba`, byteSwapped(swapped(words)), value],
    [`${kind}-badc`, byteSwapped(words), value],
    [`${kind}-abcd`, words, value],
  ];
}

/** [originDataType, registers, expected value] laid out one after the other from holding register 0. */
const TYPED: [string, number[], unknown][] = (() => {
  const int32 = registers(4, (b) => b.writeInt32BE(-123456789));
  const uint32 = registers(4, (b) => b.writeUInt32BE(3_000_000_000));
  const int64 = registers(8, (b) => b.writeBigInt64BE(-1234567890123n));
  const uint64 = registers(8, (b) => b.writeBigUInt64BE(9_007_199_254_740_991n));
  const float32 = registers(4, (b) => b.writeFloatBE(230.5));
  const float64 = registers(8, (b) => b.writeDoubleBE(12345.6789));
  const text = registers(10, (b) => b.write('Triad-01', 'latin1'));
  return [
    ['int16', registers(2, (b) => b.writeInt16BE(-1234)), -1234],
    ['uint16', [54321], 54321],
    ['int32', int32, -123456789],
    ['uint32', uint32, 3_000_000_000],
    ['int64', int64, -1234567890123],
    ['uint64', uint64, 9_007_199_254_740_991],
    ['float32', float32, 230.5],
    ['float64', float64, 12345.6789],
    ['string', text, 'Triad-01'],
    ['int32-swapped', swapped(int32), -123456789],
    ['uint32-swapped', swapped(uint32), 3_000_000_000],
    ['int64-swapped', swapped(int64), -1234567890123],
    ['uint64-swapped', swapped(uint64), 9_007_199_254_740_991],
    ['float32-swapped', swapped(float32), 230.5],
    ['float64-swapped', swapped(float64), 12345.6789],
    ['string-swapped', byteSwapped(text), 'Triad-01'],
  ];
})();

/** [originDataType, registers, expected value]: 32- and 64-bit values in all four byte orders, from holding 3000. */
const ORDERED: [string, number[], unknown][] = [
  ...orders(
    'int32',
    registers(4, (b) => b.writeInt32BE(-123456789)),
    -123456789,
  ),
  ...orders(
    'uint32',
    registers(4, (b) => b.writeUInt32BE(3_000_000_000)),
    3_000_000_000,
  ),
  ...orders(
    'float32',
    registers(4, (b) => b.writeFloatBE(230.5)),
    230.5,
  ),
  ...orders(
    'int64',
    registers(8, (b) => b.writeBigInt64BE(-1234567890123n)),
    -1234567890123,
  ),
  ...orders(
    'uint64',
    registers(8, (b) => b.writeBigUInt64BE(9_007_199_254_740_991n)),
    9_007_199_254_740_991,
  ),
  ...orders(
    'float64',
    registers(8, (b) => b.writeDoubleBE(12345.6789)),
    12345.6789,
  ),
];
const ORDERED_AT = ORDERED.map((_, i) => 3000 + ORDERED.slice(0, i).reduce((sum, [, words]) => sum + words.length, 0));

/** Holding registers 0… hold TYPED; the address of each entry. */
const TYPED_AT = TYPED.map((_, i) => TYPED.slice(0, i).reduce((sum, [, words]) => sum + words.length, 0));
const TYPED_WORDS = TYPED.flatMap(([, words]) => words);

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

function driverFor(port: number, config: Record<string, unknown> = {}, log?: (message: string) => void): PollingDriver {
  const driver = modbusTcpDriver.create({
    config: { address: '127.0.0.1', port, slaveId: 1, timeout: 1000, ...config },
    origin: '127.0.0.1',
    ...(log === undefined ? {} : { log }),
  });
  if (driver.kind !== 'polling') throw new Error('the Modbus driver polls');
  return driver;
}

async function readValues(driver: PollingDriver, points: PointRequest[]) {
  const result = await driver.read({ points, tables: [] }, AbortSignal.timeout(10_000));
  return Object.fromEntries(
    result.updates.map((u) => ('datapointId' in u ? [u.datapointId, [u.rawValue, u.quality]] : ['?', []])),
  ) as Record<string, [unknown, string]>;
}

function registry(): DriverRegistry {
  return new DriverRegistry([modbusTcpDriver]);
}

/** A template with datapoints on one Modbus device, every datapoint polled in the 5 s group. */
function template(datapoints: { id: string; address: string; type: string; alarm?: string }[]): DeviceTemplate {
  const base = createStarterTemplate('modbus-tcp') as unknown as DeviceTemplate;
  const [set] = base.datapointSets ?? [];
  const addressConfig = set?.datapoints[0]?.addressConfig;
  if (set === undefined || addressConfig === undefined) throw new Error('the starter changed');
  set.datapoints = datapoints.map(({ id, address, type, alarm }) => ({
    commonConfig: { datapointId: id, datapointType: 'DATAPOINT', alias: id },
    addressConfig: { ...addressConfig, originAddress: address, originDataType: type, pollingGroup: '5s' },
    ...(alarm === undefined
      ? {}
      : {
          alertConfig: {
            evaluations: [
              {
                expressions: [{ symbol: 'high', expression: alarm }],
                logic: 'high',
                severity: 402,
                text: `${id} is high`,
                textHelp: 'Test alarm.',
                onStartup: true,
                audited: false,
                hidden: false,
                broadcast: false,
                facility: -1,
              },
            ],
          },
        }),
  }));
  return base;
}

/** A collector on one device, polling every `periodMs` (shorter than any polling group, for tests). */
function collect(device: DeviceTemplate, port: number, periodMs = 200, config: Record<string, unknown> = {}) {
  const binding = {
    variables: { DCP_IPAddress: '127.0.0.1' },
    drivers: { 'svc-ds-drv-modbus-tcp': { port, timeout: 500, ...config } },
  };
  return collectDevice(device, binding, registry(), { periodMs });
}

describeWithPymodbus('svc-ds-drv-modbus-tcp against a real Modbus-TCP server (pymodbus)', () => {
  let server: ModbusTestServer;

  beforeAll(async () => {
    server = await ModbusTestServer.start({
      1: {
        hr: {
          0: TYPED_WORDS,
          3000: ORDERED.flatMap(([, words]) => words),
          60: [0b1010],
          100: [11, 12, 13, 14, 15],
          200: registers(4, (b) => b.writeFloatBE(20)),
          1000: Array.from({ length: 400 }, (_, i) => i),
          // The starter's voltageL1 (holding:30001) and activePower (holding:30013).
          30001: [
            ...registers(4, (b) => b.writeFloatBE(231.25)),
            ...Array<number>(10).fill(0),
            ...registers(4, (b) => b.writeFloatBE(1500.5)),
          ],
        },
        ir: { 0: [7, 8, 9] },
        co: { 0: [true, false, true, true] },
        di: { 0: [false, true] },
      },
      7: { hr: { 0: [777] } },
      // The example energy meter (HR:40001, HR:40007, HR:40013 float32, HR:40025 float64).
      3: {
        hr: {
          0: registers(56, (b) => {
            b.writeFloatBE(229.5, 0);
            b.writeFloatBE(12.5, 12);
            b.writeFloatBE(2875, 24);
            b.writeDoubleBE(1_234_567, 48);
          }),
        },
      },
    });
  }, 30_000);

  afterAll(async () => {
    await server.stop();
  });

  it('decodes every data type in both word orders', async () => {
    const driver = driverFor(server.port);
    const points = TYPED.map(([type, words], i) => {
      const at = TYPED_AT[i] ?? 0;
      const address = type.startsWith('string') ? `holding:${at}:${words.length}` : `holding:${at}`;
      return point(`p${i}`, address, type);
    });
    const values = await readValues(driver, points);
    await driver.close();
    TYPED.forEach(([type, , expected], i) => {
      expect([type, values[`p${i}`]]).toEqual([type, [expected, 'good']]);
    });
  });

  it('decodes 32- and 64-bit values in each byte order: ABCD, CDAB, DCBA and BADC', async () => {
    const driver = driverFor(server.port);
    const points = ORDERED.map(([type], i) => point(`o${i}`, `holding:${ORDERED_AT[i]}`, type));
    const values = await readValues(driver, points);
    await driver.close();
    expect(ORDERED.map(([type], i) => [type, values[`o${i}`]])).toEqual(
      ORDERED.map(([type, , expected]) => [type, [expected, 'good']]),
    );
  });

  it('reads coils, discrete inputs, input registers, register bits and Modicon references', async () => {
    const driver = driverFor(server.port);
    const values = await readValues(driver, [
      point('coil0', 'coil:0', 'bool'),
      point('coil1', '00002', 'bool'),
      point('coil3', 'CO:00004', 'boolean'),
      point('di1', 'discrete:1', 'bool'),
      point('di0', '10001', 'bool'),
      point('ir1', '30002', 'uint16'),
      point('ir2', 'input:2', 'int16'),
      point('bit1', 'holding:60.1', 'bool'),
      point('bit2', '40061.2', 'bool'),
      point('reg', 'HR:40061', 'bool'),
    ]);
    await driver.close();
    expect(values).toEqual({
      coil0: [true, 'good'],
      coil1: [false, 'good'],
      coil3: [true, 'good'],
      di1: [true, 'good'],
      di0: [false, 'good'],
      ir1: [8, 'good'],
      ir2: [9, 'good'],
      bit1: [true, 'good'],
      bit2: [false, 'good'],
      reg: [true, 'good'],
    });
  });

  it('reads the unit named by slaveId', async () => {
    const driver = driverFor(server.port, { slaveId: 7 });
    expect(await readValues(driver, [point('x', 'holding:0', 'uint16')])).toEqual({ x: [777, 'good'] });
    await driver.close();
  });

  it('reads several units of one gateway by the unitN: prefix, the others from slaveId', async () => {
    const driver = driverFor(server.port, { slaveId: 1 });
    const points = [point('u7', 'unit7:holding:0', 'uint16'), point('own', 'holding:100', 'uint16')];
    points.push(point('u7m', 'UNIT7:40001', 'uint16'));
    let values: Record<string, [unknown, string]> = {};
    const requests = await server.served(async () => (values = await readValues(driver, points)));
    await driver.close();
    expect(values).toEqual({ u7: [777, 'good'], own: [11, 'good'], u7m: [777, 'good'] });
    expect(requests.map((r) => `${r.unit}:${r.address}+${r.count}`).sort()).toEqual(['1:100+1', '7:0+1']);
  });

  it('waits requestPause between requests, for slow gateways', async () => {
    const points = [
      point('c0', 'coil:0', 'bool'),
      point('i0', 'input:0', 'uint16'),
      point('h0', 'holding:100', 'uint16'),
    ];
    const timed = async (config: Record<string, unknown>) => {
      const driver = driverFor(server.port, config);
      await readValues(driver, [point('warm', 'holding:100', 'uint16')]); // connect first
      const started = performance.now();
      const values = await readValues(driver, points);
      const elapsed = performance.now() - started;
      await driver.close();
      expect(Object.values(values).every(([, quality]) => quality === 'good')).toBe(true);
      return elapsed;
    };
    // Three requests (coils, input, holding), each after a 200 ms pause: the second and third
    // wait fully within the measured time, the first partly (its pause began after the warm-up).
    const paused = await timed({ requestPause: 200 });
    const unpaused = await timed({});
    expect(paused).toBeGreaterThanOrEqual(400);
    expect(paused - unpaused).toBeGreaterThanOrEqual(300);
  });

  it('batches each poll into as few requests as the limits allow, over one connection', async () => {
    const driver = driverFor(server.port);
    const points = [
      ...TYPED.slice(0, 8).map(([type], i) => point(`t${i}`, `holding:${TYPED_AT[i]}`, type)),
      point('far', 'holding:60', 'uint16'),
      point('c0', 'coil:0', 'bool'),
      point('c3', 'coil:3', 'bool'),
      point('d1', 'discrete:1', 'bool'),
      point('i0', 'input:0', 'uint16'),
      point('i2', 'input:2', 'uint16'),
      // Every 10th register of 1000-1399: 40 points, 125 registers at most per request.
      ...Array.from({ length: 40 }, (_, i) => point(`r${i}`, `holding:${1000 + i * 10}`, 'uint16')),
    ];
    let values: Record<string, [unknown, string]> = {};
    const requests = await server.served(async () => (values = await readValues(driver, points)));
    const served = requests.map((r) => `${r.functionCode}@${r.address}+${r.count}`);
    // Coils, discrete inputs and input registers one request each; holding: 0-19 (the typed
    // values), 60, and 1000-1390 in 125-register requests.
    expect(served.sort()).toEqual(
      ['1@0+4', '2@1+1', '4@0+3', '3@0+20', '3@60+1', '3@1000+121', '3@1130+121', '3@1260+121', '3@1390+1'].sort(),
    );
    expect(Object.values(values).every(([, quality]) => quality === 'good')).toBe(true);
    expect(values['r39']).toEqual([1390 - 1000, 'good']);
    await server.served(() => Promise.resolve());
    const connections = server.connections;
    expect(await server.served(() => readValues(driver, points))).toHaveLength(served.length);
    expect(server.connections).toBe(connections);
    await driver.close();
  });

  it('makes only the datapoints at illegal addresses bad', async () => {
    const logs: string[] = [];
    const driver = driverFor(server.port, {}, (message) => logs.push(message));
    let values: Record<string, [unknown, string]> = {};
    const requests = await server.served(
      async () =>
        (values = await readValues(driver, [
          point('ok100', 'holding:100', 'uint16'),
          point('ok104', 'holding:104', 'uint16'),
          point('missing', 'holding:106', 'uint16'),
          point('gone', 'holding:50000', 'float32'),
          point('typo', 'holding:x', 'uint16'),
          point('coil', 'coil:9', 'bool'),
          point('coilType', 'coil:0', 'int16'),
          point('fine', 'input:0', 'uint16'),
        ])),
    );
    expect(logs).toEqual([
      expect.stringContaining('test/typo: "holding:x" is not a Modbus address'),
      expect.stringContaining('test/coilType: a coil is read as bool, not int16'),
    ]);
    await driver.close();
    expect(values).toEqual({
      ok100: [11, 'good'],
      ok104: [15, 'good'],
      missing: [null, 'bad'],
      gone: [null, 'bad'],
      typo: [null, 'bad'],
      coil: [null, 'bad'],
      coilType: [null, 'bad'],
      fine: [7, 'good'],
    });
    // 100-106 failed as a whole, then each of its three datapoints alone.
    const served = requests.filter((r) => r.functionCode === 3 && r.address < 200);
    expect(served.map((r) => `${r.address}+${r.count}`)).toEqual(['100+7', '100+1', '104+1', '106+1']);
  });

  it('raises an alarm when a written value crosses the threshold and clears it when it comes back', async () => {
    const device = template([
      { id: 'temperature', address: '40201', type: 'float32', alarm: 'datapoint.value > 80' },
      { id: 'inputs', address: 'input:0', type: 'uint16' },
    ]);
    const run = collect(device, server.port);
    run.collector.start();
    await expect.poll(() => run.last('temperature')?.value, { timeout: 5_000 }).toBe(20);
    expect(run.events.filter((e) => e.type === 'alarm-raised')).toEqual([]);

    const writer = new modbusSerial.default();
    await writer.connectTCP('127.0.0.1', { port: server.port });
    writer.setID(1);
    await writer.writeRegisters(
      200,
      registers(4, (b) => b.writeFloatBE(85.5)),
    );
    await expect
      .poll(() => run.events.filter((e) => e.type === 'alarm-raised').map((e) => e.datapointId), { timeout: 5_000 })
      .toEqual(['temperature']);
    expect(run.last('temperature')?.value).toBe(85.5);

    await writer.writeRegisters(
      200,
      registers(4, (b) => b.writeFloatBE(40)),
    );
    await server.set(1, 'ir', 0, [70]);
    await expect
      .poll(() => run.events.filter((e) => e.type === 'alarm-cleared').map((e) => e.datapointId), { timeout: 5_000 })
      .toEqual(['temperature']);
    await expect.poll(() => run.last('inputs')?.value, { timeout: 5_000 }).toBe(70);
    await new Promise<void>((resolve) => writer.close(() => resolve()));
    await server.set(1, 'ir', 0, [7]);
    await run.collector.stop();
    expect(run.states.map((s) => s.state)).toEqual(['up']);
  });

  it('reads the starter template of `triad templates init --driver modbus-tcp`', async () => {
    const starter = createStarterTemplate('modbus-tcp') as unknown as DeviceTemplate;
    const run = collect(starter, server.port);
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.last('voltageL1')?.value).toBe(231.25);
    expect(run.last('activePower')?.value).toBe(1500.5);
    expect(run.events.filter((e) => e.type === 'alarm-raised')).toEqual([]);
    expect(run.states.at(-1)?.state).toBe('up');
  });

  it('reads the example energy meter, whose addresses are HR: Modicon references, in two requests', async () => {
    const file = createRequire(import.meta.url).resolve(
      '@triad/device-templates/examples/modbus-tcp-energy-meter.ndst.json',
    );
    const meter = JSON.parse(readFileSync(file, 'utf8')) as DeviceTemplate;
    const run = collect(meter, server.port, 200, { slaveId: 3 });
    const requests = await server.served(() => run.collector.pollOnce());
    await run.collector.stop();
    expect(run.last('voltageL1')?.value).toBe(229.5);
    expect(run.last('currentL1')?.rawValue).toBe(12.5);
    expect(run.last('activePower')).toMatchObject({ rawValue: 2875, value: 2.875, unit: 'kW' });
    expect(run.last('energy')?.rawValue).toBe(1_234_567);
    expect(requests.map((r) => `${r.unit}:${r.address}+${r.count}`)).toEqual(['3:0+14', '3:24+4']);
  });
});

describeWithPymodbus('svc-ds-drv-modbus-tcp when the server goes away', () => {
  it('turns the device down (refused) when the server dies and up again when it is back', async () => {
    const server = await ModbusTestServer.start({ 1: { hr: { 0: [5] } } }, await freePort());
    const device = template([{ id: 'level', address: 'holding:0', type: 'uint16', alarm: 'datapoint.value === null' }]);
    await expectDownAndBackUp(collect(device, server.port), server, {
      originType: 'svc-ds-drv-modbus-tcp',
      datapointId: 'level',
      value: 5,
    });
  }, 30_000);

  it('opens a new connection when the server dropped the old one, without failing a poll', async () => {
    const server = await ModbusTestServer.start({ 1: { hr: { 0: [5] } } }, await freePort());
    const driver = driverFor(server.port);
    try {
      expect(await readValues(driver, [point('x', 'holding:0', 'uint16')])).toEqual({ x: [5, 'good'] });
      await server.kill();
      await server.restart();
      expect(await readValues(driver, [point('x', 'holding:0', 'uint16')])).toEqual({ x: [5, 'good'] });
      // The server logs a connection on its own pipe, which may arrive after the answer.
      await expect.poll(() => server.connections, { timeout: 5_000 }).toBe(2);
    } finally {
      await driver.close();
      await server.stop();
    }
  }, 30_000);

  it('names a port nobody listens on refused and a silent unit a timeout', async () => {
    const nobody = driverFor(await freePort());
    await expect(
      nobody.read({ points: [point('x', 'holding:0', 'uint16')], tables: [] }, AbortSignal.timeout(5_000)),
    ).rejects.toMatchObject({ name: 'DriverError', code: 'refused' });
    await nobody.close();

    const server = await ModbusTestServer.start({ 1: { hr: { 0: [5] } } });
    try {
      // pymodbus does not answer a unit id it does not serve: the request times out.
      const silent = driverFor(server.port, { slaveId: 9, timeout: 300 });
      await expect(
        silent.read({ points: [point('x', 'holding:0', 'uint16')], tables: [] }, AbortSignal.timeout(5_000)),
      ).rejects.toMatchObject({ name: 'DriverError', code: 'timeout' });
      await silent.close();
    } finally {
      await server.stop();
    }
  }, 30_000);
});
