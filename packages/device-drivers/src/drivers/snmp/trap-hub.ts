/**
 * One trap receiver shared by every SNMP device of a process (decision 0049). A device whose
 * template has `subscription` datapoints registers its address and credentials while it is
 * collected; a notification from that address, carrying one of those credentials, is handed to
 * every device registered there. The UDP port is bound at the first registration and stays bound
 * until `close`. Devices that register nothing (no trap datapoints) are unknown sources: their
 * notifications are counted and dropped by the receiver.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type snmp from 'net-snmp';
import {
  SnmpTrapReceiver,
  type ReceivedTrap,
  type TrapReceiverLimits,
  type TrapReceiverStats,
  type TrapSource,
} from './trap-receiver.js';

export interface SnmpTrapHubOptions {
  /** UDP port (`TRIAD_SNMP_TRAP_PORT`). */
  readonly port: number;
  /** Address to bind; default all IPv4 addresses. */
  readonly address?: string;
  readonly log?: (message: string) => void;
  readonly limits?: TrapReceiverLimits;
}

/** What one collected device registers: where its notifications come from, and what they may carry. */
export interface TrapRegistration {
  /** The device's configured address: an IP address or a name, resolved once at registration. */
  readonly host: string;
  readonly communities: readonly string[];
  readonly users: readonly snmp.User[];
  readonly deliver: (trap: ReceivedTrap) => void;
}

export class SnmpTrapHub {
  readonly #options: SnmpTrapHubOptions;
  readonly #byAddress = new Map<string, Set<TrapRegistration>>();
  #receiver: SnmpTrapReceiver | undefined;
  #starting: Promise<void> | undefined;
  #closed = false;

  constructor(options: SnmpTrapHubOptions) {
    this.#options = options;
  }

  /** Counts of the receiver since it started; undefined before the first registration. */
  get stats(): TrapReceiverStats | undefined {
    return this.#receiver?.stats;
  }

  /**
   * Registers a device until the returned function is called. Rejects when the port cannot be
   * bound or the host does not resolve.
   */
  async register(registration: TrapRegistration): Promise<() => void> {
    if (this.#closed) throw new Error('the SNMP trap receiver is closed');
    const addresses = isIP(registration.host)
      ? [registration.host]
      : (await lookup(registration.host, { all: true })).map((entry) => entry.address);
    await this.#start();
    for (const address of addresses) {
      let set = this.#byAddress.get(address);
      if (set === undefined) this.#byAddress.set(address, (set = new Set()));
      set.add(registration);
    }
    this.#credentialsChanged();
    return () => {
      for (const address of addresses) {
        const set = this.#byAddress.get(address);
        set?.delete(registration);
        if (set?.size === 0) this.#byAddress.delete(address);
      }
      this.#credentialsChanged();
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#byAddress.clear();
    await this.#starting?.catch(() => undefined);
    await this.#receiver?.close();
  }

  #start(): Promise<void> {
    this.#starting ??= (async () => {
      const receiver = new SnmpTrapReceiver({
        port: this.#options.port,
        ...(this.#options.address === undefined ? {} : { address: this.#options.address }),
        ...(this.#options.log === undefined ? {} : { log: this.#options.log }),
        ...(this.#options.limits === undefined ? {} : { limits: this.#options.limits }),
        sources: (address) => this.#source(address),
        onTrap: (trap) => {
          for (const registration of this.#byAddress.get(trap.source) ?? []) registration.deliver(trap);
        },
      });
      await receiver.start();
      this.#receiver = receiver;
    })();
    return this.#starting;
  }

  #source(address: string): TrapSource | undefined {
    const set = this.#byAddress.get(address);
    if (set === undefined) return undefined;
    const registrations = [...set];
    return {
      deviceId: address,
      communities: registrations.flatMap((r) => r.communities),
      users: registrations.flatMap((r) => r.users.map((user) => user.name)),
    };
  }

  #credentialsChanged(): void {
    const registrations = [...this.#byAddress.values()].flatMap((set) => [...set]);
    this.#receiver?.setCredentials({
      communities: registrations.flatMap((r) => r.communities),
      users: registrations.flatMap((r) => r.users),
    });
  }
}
