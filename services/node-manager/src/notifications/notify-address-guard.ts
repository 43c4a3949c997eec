import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  AddressPolicy,
  formatIp,
  hostAddress,
  normalizeHostName,
  parseCidr,
  parseIp,
  type AddressList,
  type AddressRefusal,
  type ConnectLookup,
  type IpAddress,
  type ResolveAll,
} from '@triad/device-drivers';

/** Why a notification target is refused: the device policy's rules, plus `private`. */
export interface TargetRefusal {
  readonly rule: AddressRefusal['rule'] | 'private';
  readonly message: string;
}

/** A delivery target the notification address policy refuses. Its message says what to change. */
export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
  readonly refusal: TargetRefusal;
  constructor(refusal: TargetRefusal) {
    super(`refused by the notification address policy (${refusal.rule}): ${refusal.message}`);
    this.refusal = refusal;
  }
}

export interface NotifyAddressOptions {
  /** `TRIAD_NOTIFY_ALLOW`: what may be reached although loopback, private, link-local or multicast. */
  readonly allow: AddressList;
  /** `TRIAD_NOTIFY_DENY`: never reached. */
  readonly deny: AddressList;
  /** Triad's own service ports on this host, never reached. */
  readonly ownPorts?: () => Iterable<number>;
  /** Name resolution; default the system's (`dns.lookup`, every address). */
  readonly resolve?: ResolveAll;
}

const PRIVATE: AddressList = {
  cidrs: ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'].map(
    (text) => parseCidr(text)!,
  ),
  names: ['localhost', '*.localhost'],
};

const systemResolve: ResolveAll = (host, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, family, verbatim: true }, (error, addresses) =>
      error === null ? resolve(addresses) : reject(error),
    );
  });

/**
 * Where notifications may be sent (webhook, Slack and PagerDuty URLs, SMTP hosts), built on the
 * device address policy (`@triad/device-drivers`): its always-refused rules (cloud metadata,
 * unspecified, broadcast, Triad's own ports) and the deny list hold, and, unlike devices, loopback
 * and private ranges are refused too unless `TRIAD_NOTIFY_ALLOW` names them: an alarm must not
 * become a way to reach the service's own network. Every name is resolved here and each of its
 * addresses checked, and the connection goes to a checked address (`lookup`).
 */
export class NotifyAddressGuard {
  readonly #base: AddressPolicy;
  readonly #allow: AddressPolicy | undefined;
  readonly #allowNames: readonly string[];
  readonly #private = new AddressPolicy({ deny: PRIVATE });
  readonly #resolve: ResolveAll;

  constructor(options: NotifyAddressOptions) {
    this.#base = new AddressPolicy({ deny: options.deny, ...(options.ownPorts ? { ownPorts: options.ownPorts } : {}) });
    const hasAllow = options.allow.cidrs.length > 0 || options.allow.names.length > 0;
    this.#allow = hasAllow ? new AddressPolicy({ allow: options.allow }) : undefined;
    this.#allowNames = options.allow.names;
    this.#resolve = options.resolve ?? systemResolve;
  }

  /** The refusal of a host as a channel names it (an address, or a name before resolution); undefined if allowed. */
  checkHost(host: string, port: number): TargetRefusal | undefined {
    const ip = hostAddress(host);
    if (ip !== undefined) return this.checkAddress(ip, port);
    const refusal = this.#base.checkHost(host, port);
    if (refusal) return explain(refusal, host);
    const name = normalizeHostName(host);
    if (matchesName(this.#allowNames, name)) return undefined;
    if (matchesName(PRIVATE.names, name)) return explain({ rule: 'private', message: '' }, host);
    return undefined;
  }

  /** The refusal of one resolved address (of `name`) on `port`; undefined when it may be connected to. */
  checkAddress(ip: IpAddress, port: number, name?: string): TargetRefusal | undefined {
    const what = name === undefined ? formatHost(ip) : `${name} (${formatHost(ip)})`;
    const base = this.#base.checkAddress(ip, port, name);
    if (base && base.rule !== 'link-local' && base.rule !== 'multicast') return explain(base, what);
    if (this.#allow && this.#allow.checkAddress(ip, port, name) === undefined) return undefined;
    if (base) return explain(base, what);
    if (this.#private.checkAddress(ip, port)?.rule === 'deny') return explain({ rule: 'private', message: '' }, what);
    return undefined;
  }

  /** The checked addresses of `host` on `port`. @throws TargetRefusedError, or the resolver's error */
  async resolve(host: string, port: number): Promise<LookupAddress[]> {
    const literal = hostAddress(host);
    const early = this.checkHost(host, port);
    if (early) throw new TargetRefusedError(early);
    if (literal !== undefined) return [{ address: formatHost(literal), family: literal.family }];
    const addresses = await this.#resolve(host, 0);
    if (addresses.length === 0) throw new Error(`${host} has no address`);
    for (const address of addresses) {
      const ip = parseIp(address.address);
      const refusal = ip === undefined ? undefined : this.checkAddress(ip, port, host);
      if (refusal) throw new TargetRefusedError(refusal);
    }
    return [...addresses];
  }

  /** A `lookup` for `http.request` and `net.connect` resolving through `resolve` (Node skips it for IP literals). */
  lookup(port: number): ConnectLookup {
    return (hostname, options, callback) => {
      this.resolve(hostname, port).then(
        (addresses) => {
          if (options.all === true) callback(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, ''),
      );
    };
  }
}

function formatHost(ip: IpAddress): string {
  return formatIp(ip);
}

function matchesName(names: readonly string[], name: string): boolean {
  return names.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : entry === name));
}

/** A refusal in the words of notification targets (the device policy's messages name device settings). */
function explain(refusal: { rule: TargetRefusal['rule']; message: string }, what: string): TargetRefusal {
  const lift = 'add it to TRIAD_NOTIFY_ALLOW if notifications are really meant to go there';
  const messages: Record<TargetRefusal['rule'], string> = {
    deny: `${what} is on the deny list (TRIAD_NOTIFY_DENY)`,
    metadata: `${what} is a cloud metadata service, which notifications may never reach`,
    unspecified: `${what} is an unspecified address (it means this host); name the receiver's own address`,
    broadcast: `${what} is the broadcast address; name one receiver`,
    'own-service': `${what} is one of Triad's own services on this host, which notifications may not reach`,
    'link-local': `${what} is a link-local address; ${lift}`,
    multicast: `${what} is a multicast address; name one receiver`,
    'not-allowed': `${what} is not on the allow list (TRIAD_NOTIFY_ALLOW)`,
    private: `${what} is a loopback or private address; ${lift}`,
  };
  return { rule: refusal.rule, message: messages[refusal.rule] };
}
