import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PointRequest } from '../../driver.js';
import { describeWithPymodbus, ModbusTestServer } from '../../test-support/modbus-server.js';
import { modbusTcpDriver } from './modbus-tcp-driver.js';

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

async function read(port: number, config: Record<string, unknown>, points: PointRequest[]) {
  const driver = modbusTcpDriver.create({
    config: { address: '127.0.0.1', port, slaveId: 1, timeout: 1000, ...config },
    origin: '127.0.0.1',
  });
  if (driver.kind !== 'polling') throw new Error('the Modbus driver polls');
  try {
    const result = await driver.read({ points, tables: [] }, AbortSignal.timeout(10_000));
    return result.updates.map((u) => ('rawValue' in u ? u.rawValue : undefined));
  } finally {
    await driver.close();
  }
}

describeWithPymodbus('svc-ds-drv-modbus-tcp with framing "rtu" (RTU over TCP, real pymodbus)', () => {
  let server: ModbusTestServer;
  beforeAll(async () => {
    server = await ModbusTestServer.start({ 1: { hr: { 0: [11, 12] } }, 4: { hr: { 0: [404] } } }, undefined, 'rtu');
  }, 30_000);
  afterAll(async () => {
    await server.stop();
  });

  it('reads registers of several units through a gateway that speaks RTU frames over TCP', async () => {
    const points = [
      point('a', 'holding:0', 'uint16'),
      point('b', '40002', 'uint16'),
      point('c', 'unit4:holding:0', 'int16'),
    ];
    expect(await read(server.port, { framing: 'rtu' }, points)).toEqual([11, 12, 404]);
    // The server logs each request from its own process: the lines may arrive after the answers.
    await expect.poll(() => server.requests.map((r) => r.unit).sort()).toEqual([1, 4]);
  });

  it('gets no answer it can read when the framing is left at Modbus-TCP', async () => {
    await expect(read(server.port, { timeout: 300 }, [point('a', 'holding:0', 'uint16')])).rejects.toThrow();
  });

  it('refuses a framing it does not know, naming both', () => {
    expect(modbusTcpDriver.check({ address: '127.0.0.1', framing: 'ascii' }).join('\n')).toContain(
      'framing must be "tcp" (Modbus-TCP) or "rtu"',
    );
  });
});
