/**
 * One Modbus-TCP connection to one device (modbus-serial's client): opened on first use, kept
 * between polls, requests one at a time, dropped when the device closes it or a request fails at
 * the transport level, and opened again on the next use.
 */
import modbusSerial from 'modbus-serial';
import type { AddressGuard } from '../../address-guard.js';
import type { ModbusArea } from './modbus-address.js';

export interface ConnectionSettings {
  readonly host: string;
  readonly port: number;
  readonly unitId: number;
  /** Connect and per-request timeout in milliseconds. */
  readonly timeoutMs: number;
  /** Least time between the answer to one request and the next request, for slow gateways; 0: none. */
  readonly requestPauseMs: number;
  /** `tcp`: Modbus-TCP (MBAP header); `rtu`: RTU frames with CRC over the TCP connection (serial gateways). */
  readonly framing: 'tcp' | 'rtu';
}

// The package is CommonJS with `module.exports.default = module.exports`: the class either way.
const ModbusRTU = modbusSerial.default;
type ModbusRTU = InstanceType<typeof ModbusRTU>;

/** What a read of one table returns: register words or bits. */
export type AreaData = readonly number[] | readonly boolean[];

/** A Modbus exception response (function code with the high bit set), e.g. 2 "illegal data address". */
export function modbusExceptionCode(error: unknown): number | undefined {
  const code = (error as { modbusCode?: unknown } | null)?.modbusCode;
  return typeof code === 'number' ? code : undefined;
}

export class ModbusConnection {
  readonly #settings: ConnectionSettings;
  #client: ModbusRTU | undefined;
  /** Rejects when the open connection closes, so that a request in flight fails at once. */
  #closed: Promise<never> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #opened = 0;
  /** When the last request ended (epoch ms), for `requestPauseMs`. */
  #lastRequestEnd = -Infinity;

  readonly #guard: AddressGuard;

  /** `guard` resolves and checks the device's address at every connection. */
  constructor(settings: ConnectionSettings, guard: AddressGuard) {
    this.#settings = settings;
    this.#guard = guard;
  }

  /** How many times a connection was opened (1 while it stays up). */
  get opened(): number {
    return this.#opened;
  }

  /** Runs `work` alone on this connection (the next caller waits for it). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** True when a connection is open now (a request will not have to connect first). */
  get isOpen(): boolean {
    return this.#client?.isOpen === true;
  }

  /**
   * Reads `count` registers or bits of `area` from `address` of unit `unitId` (default the
   * device's `slaveId`), after the configured pause since the previous request.
   */
  async read(area: ModbusArea, address: number, count: number, unitId = this.#settings.unitId): Promise<AreaData> {
    const wait = this.#lastRequestEnd + this.#settings.requestPauseMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      return await this.#request(area, address, count, unitId);
    } finally {
      this.#lastRequestEnd = Date.now();
    }
  }

  async #request(area: ModbusArea, address: number, count: number, unitId: number): Promise<AreaData> {
    const client = await this.#connect();
    client.setID(unitId);
    const closed = this.#closed;
    const request = (() => {
      switch (area) {
        case 'coil':
          return client.readCoils(address, count);
        case 'discrete':
          return client.readDiscreteInputs(address, count);
        case 'input':
          return client.readInputRegisters(address, count);
        case 'holding':
          return client.readHoldingRegisters(address, count);
      }
    })();
    try {
      const result = await (closed === undefined ? request : Promise.race([request, closed]));
      return area === 'coil' || area === 'discrete' ? (result.data as boolean[]).slice(0, count) : result.data;
    } catch (error) {
      // An exception response is an answer: the connection is fine. Anything else leaves the
      // stream in an unknown state (a late answer would be taken for the next request's).
      if (modbusExceptionCode(error) === undefined) this.drop();
      throw error;
    }
  }

  /** Forgets the connection (closing its socket); the next read opens a new one. */
  drop(): void {
    const client = this.#client;
    this.#client = undefined;
    this.#closed = undefined;
    if (client === undefined) return;
    client.destroy(() => undefined);
  }

  async close(): Promise<void> {
    await this.#queue;
    this.drop();
  }

  async #connect(): Promise<ModbusRTU> {
    if (this.#client?.isOpen === true) return this.#client;
    this.drop();
    const { host, port, unitId, timeoutMs } = this.#settings;
    const client = new ModbusRTU();
    // The client re-emits socket errors; without a listener they would be thrown.
    client.on('error', () => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        client.destroy(() => undefined);
        reject(Object.assign(new Error(`connect to ${host}:${port} timed out`), { code: 'ETIMEDOUT' }));
      }, timeoutMs);
    });
    try {
      // Connects to the address the guard checked, never to the name (it could resolve elsewhere).
      const connected = this.#guard
        .address(host, port)
        .then(({ address }) =>
          this.#settings.framing === 'rtu'
            ? client.connectTelnet(address, { port })
            : client.connectTCP(address, { port }),
        );
      await Promise.race([connected, timeout]);
    } catch (error) {
      client.destroy(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    client.setID(unitId);
    client.setTimeout(timeoutMs);
    const closed = new Promise<never>((_, reject) => {
      client.on('close', () => {
        if (this.#client === client) {
          this.#client = undefined;
          this.#closed = undefined;
        }
        reject(Object.assign(new Error(`${host}:${port} closed the connection`), { code: 'ECONNRESET' }));
      });
    });
    closed.catch(() => undefined);
    this.#client = client;
    this.#closed = closed;
    this.#opened += 1;
    return client;
  }
}
