/**
 * One S7 connection to one PLC (a node-snap7 client): opened on first use (TCP, ISO-on-TCP, S7
 * setup, then the session password when there is one), kept between polls, one request at a
 * time, dropped when a request fails at the socket or ISO level, and opened again on the next use.
 *
 * node-snap7 runs each call on a libuv worker thread; a call cannot be cancelled, so a caller that
 * gives up (the poll's deadline) leaves it to finish, and the next call waits for it.
 */
import { AddressGuard } from '../../address-guard.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import type { S7Area } from './s7-address.js';
import type { S7Span } from './s7-batches.js';
import { isConnectionError, isPasswordError, isSetupFailure, s7DriverError } from './s7-errors.js';
import { newSnap7Client, SNAP7, type Snap7Client, type Snap7Error, type Snap7ReadResult } from './snap7-client.js';

export type S7ConnectionType = keyof typeof SNAP7.connectionTypes;

export interface S7ConnectionSettings {
  readonly host: string;
  readonly port: number;
  readonly rack: number;
  readonly slot: number;
  /** Milliseconds to open the TCP connection. */
  readonly connectTimeoutMs: number;
  /** Milliseconds to wait for each answer. */
  readonly requestTimeoutMs: number;
  readonly connectionType: S7ConnectionType;
  /** Sent with SetSessionPassword after connecting when not empty. */
  readonly password: string;
}

/** A snap7 call that failed: its code and snap7's text for it. */
export class Snap7CallError extends Error {
  readonly code: number;

  constructor(code: number, text: string) {
    super(text);
    this.name = 'Snap7CallError';
    this.code = code;
  }
}

const AREA_CODES: Readonly<Record<S7Area, number>> = {
  DB: SNAP7.areaDB,
  M: SNAP7.areaMerkers,
  I: SNAP7.areaInputs,
  Q: SNAP7.areaOutputs,
};

export class S7Connection {
  readonly #settings: S7ConnectionSettings;
  readonly #newClient: () => Snap7Client;
  readonly #target: string;
  #client: Snap7Client | undefined;
  #pduSize = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #opened = 0;
  #requests = 0;

  readonly #guard: AddressGuard;

  /** `guard` resolves and checks the PLC's address at every connection. */
  constructor(
    settings: S7ConnectionSettings,
    newClient: () => Snap7Client = newSnap7Client,
    guard: AddressGuard = new AddressGuard(),
  ) {
    this.#settings = settings;
    this.#newClient = newClient;
    this.#guard = guard;
    this.#target = `${settings.host}:${settings.port}`;
  }

  /** How many times a connection was opened (1 while it stays up). */
  get opened(): number {
    return this.#opened;
  }

  /** Read requests sent so far (round trips). */
  get requests(): number {
    return this.#requests;
  }

  /** True when a connection is open now (a read will not have to connect first). */
  get isOpen(): boolean {
    return this.#client !== undefined;
  }

  /** Runs `work` alone on this connection (the next caller waits for it). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Connects when not connected; resolves with the negotiated PDU size. */
  async connect(): Promise<number> {
    if (this.#client !== undefined) return this.#pduSize;
    const { host, port, rack, slot, connectTimeoutMs, requestTimeoutMs, connectionType, password } = this.#settings;
    const ip = await this.#resolve(host);
    const client = this.#newClient();
    client.SetParam(SNAP7.paramRemotePort, port);
    client.SetParam(SNAP7.paramPingTimeout, connectTimeoutMs);
    client.SetParam(SNAP7.paramSendTimeout, requestTimeoutMs);
    client.SetParam(SNAP7.paramRecvTimeout, requestTimeoutMs);
    client.SetConnectionType(SNAP7.connectionTypes[connectionType]);
    const started = Date.now();
    try {
      await call(client, (done) => client.ConnectTo(ip, rack, slot, done));
    } catch (error) {
      client.Disconnect();
      throw this.#connectError(error, Date.now() - started);
    }
    if (password !== '')
      try {
        await call(client, (done) => client.SetSessionPassword(password, done));
      } catch (error) {
        client.Disconnect();
        if (error instanceof Snap7CallError && !isPasswordError(error.code) && !isConnectionError(error.code))
          throw new DriverError('authentication', `${this.#target}: the PLC refused the password (${error.message})`);
        throw this.driverError(error);
      }
    this.#client = client;
    this.#pduSize = client.PDULength();
    this.#opened += 1;
    return this.#pduSize;
  }

  /**
   * Reads spans in one request (at most 20, within the PDU size); the answer per span. Throws a
   * `Snap7CallError` when the request as a whole fails (a socket or ISO error drops the connection).
   */
  async read(spans: readonly S7Span[]): Promise<readonly Snap7ReadResult[]> {
    await this.connect();
    const client = this.#client as Snap7Client;
    const items = spans.map((span) => ({
      Area: AREA_CODES[span.area],
      WordLen: SNAP7.wordLenByte,
      DBNumber: span.db,
      Start: span.start,
      Amount: span.size,
    }));
    this.#requests += 1;
    try {
      return await new Promise<Snap7ReadResult[]>((resolve, reject) => {
        client.ReadMultiVars(items, (error, results) => {
          if (failed(error)) reject(new Snap7CallError(error, client.ErrorText(error)));
          else resolve(results);
        });
      });
    } catch (error) {
      if (error instanceof Snap7CallError && isConnectionError(error.code)) this.drop();
      throw error;
    }
  }

  /** Turns a failure of `connect` or `read` into the DriverError the device shows. */
  driverError(error: unknown): DriverError {
    if (error instanceof Snap7CallError) return s7DriverError(error.code, error.message, this.#target);
    return toDriverError(error, this.#target);
  }

  /** Forgets the connection (disconnecting it); the next read opens a new one. */
  drop(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.Disconnect();
  }

  async close(): Promise<void> {
    await this.#queue;
    this.drop();
  }

  /** Why ConnectTo failed, told apart as far as snap7's codes allow. */
  #connectError(error: unknown, elapsedMs: number): DriverError {
    const failure = this.driverError(error);
    if (!(error instanceof Snap7CallError)) return failure;
    const { connectTimeoutMs } = this.#settings;
    // snap7 reports a connect that used up its time as "host unreachable".
    if (failure.code === 'unreachable' && elapsedMs >= connectTimeoutMs * 0.9)
      return new DriverError('timeout', `${this.#target}: no answer to the connection within ${connectTimeoutMs} ms`, {
        cause: error,
      });
    if (!isSetupFailure(error.code)) return failure;
    // TCP came up but the ISO or S7 setup did not (snap7 reports a closed socket as a timeout).
    return new DriverError(
      'protocol',
      `${this.#target}: the PLC did not accept the S7 connection (${error.message.trim()}); check rack and ` +
        'slot (s7basicConfig) and that the PLC allows PUT/GET access',
      { cause: error },
    );
  }

  /** The PLC's IPv4 address, checked by the device address policy. */
  async #resolve(host: string): Promise<string> {
    try {
      return (await this.#guard.address(host, this.#settings.port, 4)).address;
    } catch (error) {
      throw toDriverError(error, this.#target);
    }
  }
}

function failed(error: Snap7Error): error is number {
  return typeof error === 'number' && error !== 0;
}

/** Runs a node-snap7 call with a callback; rejects with a `Snap7CallError` when it reports an error. */
function call(client: Snap7Client, start: (done: (error: Snap7Error) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    start((error) => {
      if (failed(error)) reject(new Snap7CallError(error, client.ErrorText(error)));
      else resolve();
    });
  });
}
