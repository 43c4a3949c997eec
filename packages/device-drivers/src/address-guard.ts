/**
 * The address policy at connection time: every driver resolves a device's host name here, has
 * every address checked, and connects only to a checked address, so that a DNS answer that
 * changes after the device was stored cannot lead a driver somewhere the policy refuses.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { AddressPolicy, hostAddress, type AddressRefusal } from './address-policy.js';
import { DriverError } from './driver-error.js';
import { formatIp } from './ip-address.js';

/** `dns.lookup` with `all: true`, as a promise (tests swap it for a fixed answer). */
export type ResolveAll = (host: string, family: 0 | 4 | 6) => Promise<readonly LookupAddress[]>;

/** A `lookup` function for `net.connect`, `tls.connect` and `http.request`. */
export type ConnectLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const systemResolve: ResolveAll = (host, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, family, verbatim: true }, (error, addresses) =>
      error === null ? resolve(addresses) : reject(error),
    );
  });

/** The error a refused address becomes: a DriverError of code `forbidden` that names the rule. */
export class AddressRefusedError extends DriverError {
  readonly refusal: AddressRefusal;

  constructor(refusal: AddressRefusal) {
    super('forbidden', `refused by the device address policy (${refusal.rule}): ${refusal.message}`);
    this.name = 'AddressRefusedError';
    this.refusal = refusal;
  }
}

/** `new AddressRefusedError(refusal)`. */
export function refusedError(refusal: AddressRefusal): AddressRefusedError {
  return new AddressRefusedError(refusal);
}

export class AddressGuard {
  readonly policy: AddressPolicy;
  readonly #resolve: ResolveAll;

  constructor(policy: AddressPolicy = new AddressPolicy(), resolve: ResolveAll = systemResolve) {
    this.policy = policy;
    this.#resolve = resolve;
  }

  /**
   * The addresses of `host` (an address in any form, or a name) to connect to on `port`, after
   * the policy accepted every one of them; `family` 4 asks for IPv4 only. Throws a `forbidden`
   * DriverError when the host or any of its addresses is refused, and the resolver's error
   * (`ENOTFOUND` ...) when the name does not resolve.
   */
  async resolve(host: string, port: number | undefined, family: 0 | 4 | 6 = 0): Promise<LookupAddress[]> {
    const before = this.policy.checkHost(host, port);
    if (before !== undefined) throw refusedError(before);
    const literal = hostAddress(host);
    if (literal !== undefined) {
      if (family !== 0 && literal.family !== family)
        throw new DriverError('configuration', `${host} is not an IPv${family} address`);
      return [{ address: formatIp(literal), family: literal.family }];
    }
    const found = await this.#resolve(host, family);
    for (const { address } of found) {
      const ip = hostAddress(address);
      const refusal =
        ip === undefined
          ? { rule: 'deny' as const, message: `${host} resolved to ${address}, which is not an address` }
          : this.policy.checkAddress(ip, port, host);
      if (refusal !== undefined) throw refusedError(refusal);
    }
    if (found.length === 0) throw Object.assign(new Error(`${host}: no address`), { code: 'ENOTFOUND' });
    return [...found];
  }

  /** The first checked address of `host` (see `resolve`). */
  async address(host: string, port: number | undefined, family: 0 | 4 | 6 = 0): Promise<LookupAddress> {
    return (await this.resolve(host, port, family))[0]!;
  }

  /**
   * A `lookup` for Node's sockets that resolves through `resolve` for `port`. Node skips `lookup`
   * for an IP literal: check such hosts with `policy.checkHost` before connecting.
   */
  lookup(port: number): ConnectLookup {
    return (hostname, options, callback) => {
      const family =
        options.family === 4 || options.family === 'IPv4'
          ? 4
          : options.family === 6 || options.family === 'IPv6'
            ? 6
            : 0;
      this.resolve(hostname, port, family).then(
        (addresses) => {
          if (options.all === true) callback(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, ''),
      );
    };
  }
}
