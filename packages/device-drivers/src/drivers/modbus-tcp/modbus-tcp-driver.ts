/**
 * `svc-ds-drv-modbus-tcp`: coils, discrete inputs, input and holding registers of a Modbus-TCP
 * device (or of the unit `slaveId` behind a gateway), read with modbus-serial over one kept TCP
 * connection. Each poll's datapoints are batched into as few requests as the limits allow; a
 * Modbus exception makes only the datapoints it concerns `bad`. Address grammar and data types:
 * modbus-address.ts, modbus-data-type.ts and docs/devices.md.
 */
import { isObject } from '@triad/common';
import { AddressGuard } from '../../address-guard.js';
import { configProblems, hostAt, numberAt, stringAt } from '../../config-values.js';
import type {
  DriverContext,
  DriverFactory,
  PointRequest,
  PollingDriver,
  ReadRequest,
  ReadResult,
} from '../../driver.js';
import { parsePoints } from '../../parse-points.js';
import { perRequest } from '../../per-request.js';
import { pointReadings } from '../../point-reading.js';
import { reportOnce } from '../../report-once.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import { parseModbusAddress, type ModbusAddress } from './modbus-address.js';
import { planBatches, singleBatches, type Batch, type BatchLimits, type Span } from './modbus-batches.js';
import { ModbusConnection, modbusExceptionCode, type AreaData, type ConnectionSettings } from './modbus-connection.js';
import { decodeRegisters, parseModbusDataType, spanOf, type ModbusDataType } from './modbus-data-type.js';

interface ModbusSettings extends ConnectionSettings {
  readonly limits: BatchLimits;
}

function settings(config: Readonly<Record<string, unknown>>): ModbusSettings {
  const host = hostAt(config, 'address');
  return {
    host,
    port: numberAt(config, 'port', 502, { min: 1, max: 65_535, integer: true }),
    unitId: numberAt(config, 'slaveId', 1, { min: 0, max: 255, integer: true }),
    timeoutMs: numberAt(config, 'timeout', 3000, { min: 100, max: 60_000 }),
    requestPauseMs: numberAt(config, 'requestPause', 0, { min: 0, max: 10_000 }),
    framing: framingAt(config),
    limits: {
      maxRegisters: numberAt(config, 'maxRegistersPerRequest', 125, { min: 1, max: 125, integer: true }),
      maxBits: numberAt(config, 'maxBitsPerRequest', 2000, { min: 1, max: 2000, integer: true }),
      maxGap: numberAt(config, 'maxGap', 16, { min: 0, max: 124, integer: true }),
    },
  };
}

function framingAt(config: Readonly<Record<string, unknown>>): 'tcp' | 'rtu' {
  const framing = stringAt(config, 'framing', 'tcp');
  if (framing === 'tcp' || framing === 'rtu') return framing;
  throw new DriverError(
    'configuration',
    `framing must be "tcp" (Modbus-TCP) or "rtu" (RTU frames over TCP, for serial gateways); ` +
      `it is ${JSON.stringify(framing)}`,
  );
}

/** A datapoint with its parsed address and type: what the batches carry. */
interface PointRead extends Span {
  readonly point: PointRequest;
  readonly where: ModbusAddress;
  readonly type: ModbusDataType;
}

/** Modbus exceptions that mean the gateway cannot reach the unit: the device is down, not the point bad. */
const GATEWAY_EXCEPTIONS = new Set([10, 11]);

export const modbusTcpDriver: DriverFactory = {
  originType: 'svc-ds-drv-modbus-tcp',
  secretKeys: [],
  check: (config) => configProblems(() => settings(config)),
  targets: (config) => {
    if (configProblems(() => settings(config)).length > 0) return [];
    const { host, port } = settings(config);
    return [{ host, port, path: 'address' }];
  },
  create(context: DriverContext): PollingDriver {
    const options = settings(context.config);
    const connection = new ModbusConnection(options, context.guard ?? new AddressGuard());
    const target = `${options.host}:${options.port}`;
    const report = reportOnce(context.log, `svc-ds-drv-modbus-tcp ${target}`);
    const batchesOf = perRequest((request) =>
      planBatches(parsePoints(request, pointRead, report, 'Modbus-TCP reads map sets only'), options.limits),
    );
    return {
      kind: 'polling',
      read: (request, signal) =>
        connection.exclusive(() => readPoints(connection, request, batchesOf(request), signal, target)),
      close: () => connection.close(),
    };
  },
};

async function readPoints(
  connection: ModbusConnection,
  request: ReadRequest,
  batches: readonly Batch<PointRead>[],
  signal: AbortSignal,
  target: string,
): Promise<ReadResult> {
  const values = new Map<PointRequest, unknown>();
  // A connection kept from an earlier poll may have been closed by the device meanwhile (many
  // close idle connections): then one fresh connection gets a second chance at this poll.
  let retry = connection.isOpen;
  for (let next = 0; next < batches.length;) {
    const batch = batches[next];
    if (batch === undefined) break; // next < batches.length
    if (signal.aborted) throw new DriverError('timeout', `${target}: the read was cut short`);
    try {
      await readBatch(connection, batch, values);
      next += 1;
    } catch (error) {
      if (retry && isConnectionLoss(error)) {
        retry = false;
        continue;
      }
      throw asDriverError(error, target);
    }
  }
  return { updates: pointReadings(request.points, values) };
}

function pointRead(point: PointRequest): PointRead {
  const where = parseModbusAddress(point.originAddress);
  const type = parseModbusDataType(point.originDataType);
  const span = spanOf(where, type);
  if (where.address + span > 65_536)
    throw new RangeError(`${point.originAddress} ${point.originDataType} runs past the last address, 65535`);
  return {
    ...(where.unit === undefined ? {} : { unit: where.unit }),
    area: where.area,
    address: where.address,
    span,
    point,
    where,
    type,
  };
}

/**
 * Reads one batch into `values`. On a Modbus exception the batch is read again item by item, so
 * that only the datapoints the device refuses stay without a value.
 */
async function readBatch(
  connection: ModbusConnection,
  batch: Batch<PointRead>,
  values: Map<PointRequest, unknown>,
): Promise<void> {
  try {
    store(batch, await connection.read(batch.area, batch.address, batch.count, batch.unit), values);
    return;
  } catch (error) {
    const code = modbusExceptionCode(error);
    if (code === undefined || GATEWAY_EXCEPTIONS.has(code)) throw error;
    if (batch.items.length === 1 || batch.items.every((item) => item.address === batch.address)) return;
  }
  for (const single of singleBatches(batch)) {
    try {
      store(single, await connection.read(single.area, single.address, single.count, single.unit), values);
    } catch (error) {
      const code = modbusExceptionCode(error);
      if (code === undefined || GATEWAY_EXCEPTIONS.has(code)) throw error;
    }
  }
}

function store(batch: Batch<PointRead>, data: AreaData, values: Map<PointRequest, unknown>): void {
  for (const item of batch.items) {
    const offset = item.address - batch.address;
    const slice = data.slice(offset, offset + item.span);
    if (slice.length < item.span) continue;
    const first = slice[0];
    values.set(
      item.point,
      typeof first === 'boolean' ? first : decodeRegisters(slice as number[], item.where, item.type),
    );
  }
}

function isConnectionLoss(error: unknown): boolean {
  const code = isObject(error) ? error['code'] : undefined;
  const errno = isObject(error) ? error['errno'] : undefined;
  return code === 'ECONNRESET' || code === 'EPIPE' || (errno === 'ECONNREFUSED' && code === undefined);
}

function asDriverError(error: unknown, target: string): DriverError {
  const code = modbusExceptionCode(error);
  if (code === 10 || code === 11)
    return new DriverError(
      code === 10 ? 'unreachable' : 'timeout',
      `${target}: the gateway ${code === 10 ? 'has no path to' : 'got no answer from'} the unit ` +
        `(Modbus exception ${code})`,
      { cause: error },
    );
  const errno = isObject(error) ? error['errno'] : undefined;
  if (errno === 'ETIMEDOUT') return new DriverError('timeout', `${target}: no answer in time`, { cause: error });
  return toDriverError(error, target);
}
