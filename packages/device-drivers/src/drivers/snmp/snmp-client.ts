/**
 * One device's SNMP session (net-snmp: one UDP socket), as promises. The session lives across
 * reads, so SNMPv3 engine discovery and key localisation happen once. After a failure that may
 * mean the agent restarted or the session is stale (no answer, a usmStats report, a socket
 * error) the session is retired: requests still running on it finish, and the next request opens
 * a fresh one.
 */
import snmp from 'net-snmp';
import { AddressGuard } from '../../address-guard.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import { snmpDriverError } from './snmp-errors.js';
import type { SnmpSettings } from './snmp-settings.js';
import { tcpDgramModule } from './tcp-datagram-socket.js';

interface LiveSession {
  readonly session: snmp.Session;
  inFlight: number;
  retired: boolean;
  closed: boolean;
}

/** A net-snmp request call: `(callback) => void`. */
type Call<T> = (session: snmp.Session, done: (error: Error | null, result?: T) => void) => void;

export class SnmpClient {
  readonly #settings: SnmpSettings;
  readonly #log: ((message: string) => void) | undefined;
  #current: LiveSession | undefined;
  readonly #all = new Set<LiveSession>();
  #closed = false;
  readonly #guard: AddressGuard;
  /** The session being opened (its address being resolved and checked). */
  #opening: Promise<LiveSession> | undefined;

  /** `guard` resolves and checks the agent's address whenever a session opens. */
  constructor(settings: SnmpSettings, log?: (message: string) => void, guard: AddressGuard = new AddressGuard()) {
    this.#settings = settings;
    this.#log = log;
    this.#guard = guard;
  }

  /** GET: one varbind per OID, in order (missing objects as noSuchObject/noSuchInstance varbinds). */
  get(oids: readonly string[], signal: AbortSignal): Promise<snmp.Varbind[]> {
    return this.#request((session, done) => session.get([...oids], done), signal);
  }

  /** GETNEXT: the next varbind after each OID. */
  getNext(oids: readonly string[], signal: AbortSignal): Promise<snmp.Varbind[]> {
    return this.#request((session, done) => session.getNext([...oids], done), signal);
  }

  /** GETBULK without non-repeaters: per OID, up to `maxRepetitions` following varbinds. */
  getBulk(oids: readonly string[], maxRepetitions: number, signal: AbortSignal): Promise<snmp.Varbind[][]> {
    return this.#request<(snmp.Varbind | snmp.Varbind[])[]>(
      (session, done) => session.getBulk([...oids], 0, maxRepetitions, done),
      signal,
    ).then((columns) => columns.map((column) => (Array.isArray(column) ? column : [column])));
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const live of this.#all) this.#end(live);
    this.#all.clear();
    this.#current = undefined;
    return Promise.resolve();
  }

  /**
   * Runs `call` on the current session. A usmStats report that the agent's engine changed under a
   * live session (notInTimeWindow, unknownEngineID: it restarted or was replaced) is answered by
   * one more try on a fresh session, which discovers the engine again.
   */
  async #request<T>(call: Call<T>, signal: AbortSignal): Promise<T> {
    try {
      return await this.#once(call, signal);
    } catch (error) {
      const cause = error instanceof DriverError && error.cause instanceof Error ? error.cause.message : '';
      if (!/time window|engine id/i.test(cause)) throw error;
      return this.#once(call, signal);
    }
  }

  async #once<T>(call: Call<T>, signal: AbortSignal): Promise<T> {
    if (this.#closed) throw new DriverError('protocol', 'the SNMP driver is closed');
    if (signal.aborted) throw aborted(this.#settings);
    const live = await this.#session();
    if (signal.aborted) throw aborted(this.#settings);
    live.inFlight++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown, result?: T) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        live.inFlight--;
        if (error !== null) {
          const failure = snmpDriverError(error, this.#settings);
          if (failure.code !== 'protocol' || !(error instanceof Error) || error.name !== 'RequestFailedError')
            this.#retire(live);
          reject(failure);
        } else {
          if (live.retired && live.inFlight === 0) this.#end(live);
          resolve(result as T);
        }
      };
      const onAbort = () => finish(aborted(this.#settings));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        call(live.session, (error, result) => finish(error, result));
      } catch (error) {
        finish(error);
      }
    });
  }

  /** The current session, or a new one to the agent's checked address. */
  #session(): Promise<LiveSession> {
    if (this.#current !== undefined && !this.#current.retired) return Promise.resolve(this.#current);
    this.#opening ??= this.#open().finally(() => (this.#opening = undefined));
    return this.#opening;
  }

  async #open(): Promise<LiveSession> {
    const { address, port } = this.#settings;
    let checked: { address: string; family: number };
    try {
      // The session gets the checked address, never the name: net-snmp would resolve it at each send.
      checked = await this.#guard.address(address, port);
    } catch (error) {
      throw toDriverError(error, `SNMP agent ${address}:${port}`);
    }
    const live = this.#create(checked.address, checked.family === 6 ? 'udp6' : 'udp4');
    if (this.#closed) {
      this.#end(live);
      throw new DriverError('protocol', 'the SNMP driver is closed');
    }
    return live;
  }

  #create(ip: string, transport: 'udp4' | 'udp6'): LiveSession {
    const { address, port, retries, timeoutMs, v3, community, version } = this.#settings;
    const tcp = this.#settings.transport === 'tcp' ? { dgramModule: tcpDgramModule(timeoutMs) } : {};
    const options = { port, retries, timeout: timeoutMs, backoff: 1, transport, ...tcp };
    const session =
      v3 !== undefined
        ? snmp.createV3Session(ip, v3.netSnmpUser, { ...options, version: snmp.Version3, context: v3.contextName })
        : snmp.createSession(ip, community, {
            ...options,
            version: version === '1' ? snmp.Version1 : snmp.Version2c,
          });
    const live: LiveSession = { session, inFlight: 0, retired: false, closed: false };
    // Without a listener an 'error' event (a malformed datagram, a socket failure) would throw.
    session.on('error', (error: Error) => {
      this.#log?.(`SNMP ${address}:${port}: ${error.message}`);
      this.#retire(live);
    });
    this.#current = live;
    this.#all.add(live);
    return live;
  }

  #retire(live: LiveSession): void {
    live.retired = true;
    if (this.#current === live) this.#current = undefined;
    if (live.inFlight === 0) this.#end(live);
  }

  #end(live: LiveSession): void {
    this.#all.delete(live);
    if (live.closed) return;
    live.closed = true;
    try {
      live.session.close();
    } catch {
      // Already closed by a socket error: nothing left to release.
    }
  }
}

function aborted(settings: SnmpSettings): DriverError {
  return new DriverError(
    'timeout',
    `SNMP agent ${settings.address}:${settings.port}: the read was cut short (read deadline or shutdown)`,
  );
}
