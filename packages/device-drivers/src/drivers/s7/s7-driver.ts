/**
 * `svc-ds-drv-s7`: data blocks, merkers, inputs and outputs of a Siemens S7 PLC (S7-300, S7-400,
 * S7-1200 and S7-1500 with PUT/GET allowed, and S7 servers such as snap7's), read with node-snap7
 * over one kept connection. Each poll's values are joined into byte ranges and read with as few
 * "read var" requests as the PDU size allows, then decoded here; an address the PLC refuses makes
 * only the datapoints there `bad`. Address grammar and data types: s7-address.ts, s7-data-type.ts
 * and docs/devices.md.
 */
import { booleanAt, configProblems, hostAt, numberAt, stringAt } from '../../config-values.js';
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
import { DriverError } from '../../driver-error.js';
import { parseS7Address, type S7Address } from './s7-address.js';
import { planRanges, planRequests, singleRanges, type S7Range, type S7Span } from './s7-batches.js';
import { S7Connection, Snap7CallError, type S7ConnectionSettings, type S7ConnectionType } from './s7-connection.js';
import { decodeS7, parseS7DataType, sizeOf, type S7DataType } from './s7-data-type.js';
import { isConnectionError, isItemError, isPasswordError } from './s7-errors.js';
import { newSnap7Client, SNAP7, type Snap7Client, type Snap7ReadResult } from './snap7-client.js';

export const S7_ORIGIN_TYPE = 'svc-ds-drv-s7';

export interface S7Settings extends S7ConnectionSettings {
  /** Unwanted bytes a request may read to join two values of one area. */
  readonly maxGap: number;
}

export function s7Settings(config: Readonly<Record<string, unknown>>): S7Settings {
  const host = hostAt(config, 's7basicConfig.address', { ipv6: false });
  const connectionType = stringAt(config, 's7extraConfig.connectionType', 'PG').toUpperCase();
  if (!Object.hasOwn(SNAP7.connectionTypes, connectionType))
    throw new DriverError('configuration', `s7extraConfig.connectionType must be PG, OP or BASIC`);
  // Checked for its type only: whether the PLC is protected shows when it answers.
  booleanAt(config, 's7security.accessProtection', false);
  return {
    host,
    rack: numberAt(config, 's7basicConfig.rack', 0, { min: 0, max: 7, integer: true }),
    slot: numberAt(config, 's7basicConfig.slot', 2, { min: 0, max: 31, integer: true }),
    port: numberAt(config, 's7extraConfig.port', 102, { min: 1, max: 65_535, integer: true }),
    requestTimeoutMs: numberAt(config, 's7extraConfig.requestTimeout', 5000, { min: 100, max: 120_000 }),
    connectTimeoutMs: numberAt(config, 's7extraConfig.connectionTimeout', 3000, { min: 100, max: 120_000 }),
    connectionType: connectionType as S7ConnectionType,
    password: stringAt(config, 's7security.password', ''),
    maxGap: numberAt(config, 's7extraConfig.maxGap', 32, { min: 0, max: 1024, integer: true }),
  };
}

/** A datapoint with its parsed address and type: what the ranges carry. */
interface PointRead extends S7Span {
  readonly point: PointRequest;
  readonly where: S7Address;
  readonly type: S7DataType;
}

/** The S7 driver; `newClient` makes the node-snap7 clients (tests wrap them to count requests). */
export function createS7Driver(newClient: () => Snap7Client = newSnap7Client): DriverFactory {
  return {
    originType: S7_ORIGIN_TYPE,
    secretKeys: ['s7security.password'],
    tuningKeys: ['s7extraConfig.requestTimeout', 's7extraConfig.connectionTimeout', 's7extraConfig.maxGap'],
    check: (config) => configProblems(() => s7Settings(config)),
    targets: (config) => {
      if (configProblems(() => s7Settings(config)).length > 0) return [];
      const { host, port } = s7Settings(config);
      return [{ host, port, path: 's7basicConfig.address' }];
    },
    create(context: DriverContext): PollingDriver {
      const options = s7Settings(context.config);
      const connection = new S7Connection(options, newClient, context.guard);
      const report = reportOnce(context.log, `${S7_ORIGIN_TYPE} ${options.host}:${options.port}`);
      const rangesOf = perRequest((request) =>
        planRanges(parsePoints(request, pointRead, report, 'the S7 driver reads map sets only'), options.maxGap),
      );
      return {
        kind: 'polling',
        read: (request, signal) =>
          untilAborted(
            connection.exclusive(() => readWithRetry(connection, request, rangesOf(request), signal, report)),
            signal,
            `${options.host}:${options.port}`,
          ),
        close: () => connection.close(),
      };
    },
  };
}

export const s7Driver: DriverFactory = createS7Driver();

/** A datapoint with its parsed address and type, as a span of its area; throws for a wrong address or type. */
function pointRead(point: PointRequest): PointRead {
  const where = parseS7Address(point.originAddress);
  const type = parseS7DataType(point.originDataType, where);
  return { area: where.area, db: where.db, start: where.byte, size: sizeOf(where, type), point, where, type };
}

async function readWithRetry(
  connection: S7Connection,
  request: ReadRequest,
  ranges: readonly S7Range<PointRead>[],
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<ReadResult> {
  // A connection kept from an earlier poll may have been closed by the PLC meanwhile: then one
  // fresh connection gets a second chance at this poll.
  let retry = connection.isOpen;
  for (;;) {
    if (signal.aborted) throw new DriverError('timeout', 'the read was cut short');
    try {
      const values = await readRanges(connection, ranges, report);
      return { updates: pointReadings(request.points, values) };
    } catch (error) {
      if (retry && error instanceof Snap7CallError && isConnectionError(error.code)) {
        retry = false;
        continue;
      }
      throw connection.driverError(error);
    }
  }
}

/** Reads the ranges; a range the PLC refuses is read again value by value, so that only those it refuses are bad. */
async function readRanges(
  connection: S7Connection,
  ranges: readonly S7Range<PointRead>[],
  report: (message: string) => void,
): Promise<Map<PointRequest, unknown>> {
  const values = new Map<PointRequest, unknown>();
  if (ranges.length === 0) return values;
  const pduSize = await connection.connect();
  const refused = await readInto(connection, ranges, pduSize, values);
  const again = [...refused.keys()].filter((range) => singleRanges(range).length > 1);
  const still = new Map([...refused].filter(([range]) => !again.includes(range)));
  if (again.length > 0)
    for (const entry of await readInto(connection, again.flatMap(singleRanges), pduSize, values)) still.set(...entry);
  for (const [range, reason] of still)
    for (const item of range.items)
      if (!values.has(item.point))
        report(`${item.point.datapointSetId}/${item.point.datapointId} (${item.point.originAddress}): ${reason}`);
  return values;
}

/** Reads and decodes `ranges` into `values`; returns the ranges the PLC refused, with its reason. */
async function readInto(
  connection: S7Connection,
  ranges: readonly S7Range<PointRead>[],
  pduSize: number,
  values: Map<PointRequest, unknown>,
): Promise<Map<S7Range<PointRead>, string>> {
  const buffers = new Map<S7Range<PointRead>, Buffer>();
  const refused = new Map<S7Range<PointRead>, string>();
  for (const { pieces } of planRequests(ranges, { pduSize, maxGap: 0 })) {
    let results: readonly Snap7ReadResult[];
    try {
      results = await connection.read(pieces);
    } catch (error) {
      // The PLC refused the request as a whole for an address it did not like.
      if (!(error instanceof Snap7CallError && isItemError(error.code))) throw error;
      for (const piece of pieces) refused.set(piece.range, describe(error.code));
      continue;
    }
    pieces.forEach((piece, i) => {
      const { Result: code, Data: data } = results[i] ?? { Result: -1, Data: null };
      if (code === 0 && data !== null && data.length >= piece.size) {
        let buffer = buffers.get(piece.range);
        if (buffer === undefined) buffers.set(piece.range, (buffer = Buffer.alloc(piece.range.size)));
        data.copy(buffer, piece.start - piece.range.start, 0, piece.size);
        return;
      }
      if (isPasswordError(code)) throw connection.driverError(new Snap7CallError(code, ''));
      refused.set(piece.range, code > 0 && isItemError(code) ? describe(code) : `unexpected answer (code ${code})`);
    });
  }
  for (const [range, buffer] of buffers) {
    if (refused.has(range)) continue;
    for (const item of range.items)
      values.set(item.point, decodeS7(buffer.subarray(item.start - range.start), item.where, item.type));
  }
  return refused;
}

const ITEM_TEXT: Readonly<Record<number, string>> = {
  0x00700000: 'the value does not fit the PDU',
  0x00900000: 'the PLC says the address is out of range',
  0x00a00000: 'the PLC refused the transport size',
  0x00c00000: 'the PLC does not have this item (no such DB?)',
  0x01400000: 'the PLC does not offer this function',
  0x02300000: 'the PLC refused the read',
};

function describe(code: number): string {
  return ITEM_TEXT[(code & 0xfff00000) >>> 0] ?? `snap7 error 0x${code.toString(16)}`;
}

/** `work`, or a timeout DriverError as soon as `signal` aborts (the native call finishes on its own). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, target: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new DriverError('timeout', `${target}: the read was cut short`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DriverError('timeout', `${target}: the read was cut short`));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
