/**
 * Where devices may be reached (issue 23): the pure rules, taking a host as written or a resolved
 * address and returning the rule that refuses it. The order, first match wins:
 *
 * 1. `deny`: the operator's deny list (`TRIAD_DEVICES_DENY`), names and CIDR blocks.
 * 2. Always refused, whatever the allow list says: cloud metadata addresses and names
 *    (`metadata`), unspecified addresses (`unspecified`), the IPv4 broadcast address
 *    (`broadcast`), and Triad's own service ports on this host (`own-service`).
 * 3. `allow`: the operator's allow list (`TRIAD_DEVICES_ALLOW`) accepts what it names; it can lift
 *    the next rules for a plant that uses link-local addresses, for example.
 * 4. Refused by default: link-local (`link-local`) and multicast (`multicast`) addresses.
 * 5. With an allow list, everything it does not name (`not-allowed`); without one, accepted.
 *
 * Private ranges and loopback are accepted by default. An IPv6 address that carries an IPv4
 * address (IPv4-mapped, -compatible, NAT64, 6to4) is refused when either form is.
 */
import {
  embeddedIpv4,
  formatIp,
  inCidr,
  parseCidr,
  parseIp,
  parseLooseIpv4,
  type Cidr,
  type IpAddress,
} from './ip-address.js';

/** The rule that refused an address: stable words, shown in problems and device errors. */
export type AddressRule =
  'deny' | 'metadata' | 'unspecified' | 'broadcast' | 'own-service' | 'link-local' | 'multicast' | 'not-allowed';

/** Why an address is refused: the rule and a sentence saying what to change. */
export interface AddressRefusal {
  readonly rule: AddressRule;
  readonly message: string;
}

/** The entries of one list: CIDR blocks and host names (`*.example.com` also matches below it). */
export interface AddressList {
  readonly cidrs: readonly Cidr[];
  readonly names: readonly string[];
}

export interface AddressPolicyOptions {
  readonly allow?: AddressList;
  readonly deny?: AddressList;
  /** Ports of Triad's own services on this host; read at each check (they are known once listening). */
  readonly ownPorts?: () => Iterable<number>;
  /** This host's own addresses besides loopback and the unspecified ones; read at each check. */
  readonly ownAddresses?: () => Iterable<string>;
}

/** Cloud metadata services: AWS (also ECS and EKS), GCP, Azure, OpenStack, Oracle, Alibaba. */
const METADATA_ADDRESSES = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '168.63.129.16',
  '192.0.0.192',
  'fd00:ec2::254',
  'fd00:ec2::23',
  'fd20:ce::254',
].map((text) => parseCidr(text)!);

const METADATA_NAMES = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
];

const cidrs = (...texts: string[]) => texts.map((text) => parseCidr(text)!);
const UNSPECIFIED = cidrs('0.0.0.0/8', '::/128');
const BROADCAST = cidrs('255.255.255.255/32');
const LOOPBACK = cidrs('127.0.0.0/8', '::1/128');
const LINK_LOCAL = cidrs('169.254.0.0/16', 'fe80::/10');
const MULTICAST = cidrs('224.0.0.0/4', 'ff00::/8');

/** The normal form of a host name: lower case, without the root's trailing dot. */
export function normalizeHostName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/**
 * An IP address as the drivers would reach it: the usual forms with or without brackets, and the
 * loose IPv4 forms (`2852039166`, `0xA9FEA9FE`); `undefined` for a host name.
 */
export function hostAddress(host: string): IpAddress | undefined {
  const bare = host.replace(/\.$/, '');
  return parseIp(bare) ?? parseLooseIpv4(bare);
}

/**
 * Parses a comma-separated list of CIDR blocks, addresses and host names (`TRIAD_DEVICES_ALLOW`,
 * `TRIAD_DEVICES_DENY`); `problems` lists the entries that are none of them.
 */
export function parseAddressList(text: string): { list: AddressList; problems: string[] } {
  const cidrList: Cidr[] = [];
  const names: string[] = [];
  const problems: string[] = [];
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const cidr = parseCidr(entry);
    const name = normalizeHostName(entry);
    if (cidr !== undefined) cidrList.push(cidr);
    else if (/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name))
      names.push(name);
    else problems.push(`${entry} is neither a CIDR block (10.0.0.0/8), an address nor a host name`);
  }
  return { list: { cidrs: cidrList, names }, problems };
}

export class AddressPolicy {
  readonly #options: AddressPolicyOptions;

  constructor(options: AddressPolicyOptions = {}) {
    this.#options = options;
  }

  /**
   * The refusal of a host as a device names it (an address in any form, or a host name, with an
   * optional port), before any name resolution; `undefined` when it may be tried. A name that
   * passes must still have each of its addresses checked with `checkAddress` at connection time.
   */
  checkHost(host: string, port?: number): AddressRefusal | undefined {
    const ip = hostAddress(host);
    if (ip !== undefined) return this.checkAddress(ip, port);
    const name = normalizeHostName(host);
    if (matchesName(this.#options.deny?.names ?? [], name))
      return { rule: 'deny', message: `${host} is on the deny list (TRIAD_DEVICES_DENY)` };
    if (METADATA_NAMES.includes(name))
      return { rule: 'metadata', message: `${host} is a cloud metadata service, which devices may never reach` };
    return undefined;
  }

  /**
   * The refusal of one resolved address (of `name`, when it came from one) on `port`; `undefined`
   * when it may be connected to.
   */
  checkAddress(ip: IpAddress, port?: number, name?: string): AddressRefusal | undefined {
    const text = formatIp(ip);
    const what = name === undefined ? text : `${name} (${text})`;
    const forms = [ip, ...embeddedIpv4(ip)];
    const any = (list: readonly Cidr[]) => forms.some((form) => list.some((cidr) => inCidr(form, cidr)));
    const host = name === undefined ? undefined : normalizeHostName(name);
    const { allow, deny } = this.#options;
    if (any(deny?.cidrs ?? []) || (host !== undefined && matchesName(deny?.names ?? [], host)))
      return { rule: 'deny', message: `${what} is on the deny list (TRIAD_DEVICES_DENY)` };
    if (any(METADATA_ADDRESSES) || (host !== undefined && METADATA_NAMES.includes(host)))
      return { rule: 'metadata', message: `${what} is a cloud metadata service, which devices may never reach` };
    if (any(UNSPECIFIED))
      return {
        rule: 'unspecified',
        message: `${what} is an unspecified address (it means this host): name the device's own address`,
      };
    if (any(BROADCAST)) return { rule: 'broadcast', message: `${what} is the broadcast address: name one device` };
    if (port !== undefined && [...(this.#options.ownPorts?.() ?? [])].includes(port) && this.#isOwn(forms))
      return {
        rule: 'own-service',
        message: `${what} port ${port} is one of Triad's own services on this host, which devices may not reach`,
      };
    const allowed =
      (allow?.cidrs ?? []).some((cidr) => forms.some((form) => inCidr(form, cidr))) ||
      (host !== undefined && matchesName(allow?.names ?? [], host));
    if (allowed) return undefined;
    if (any(LINK_LOCAL))
      return {
        rule: 'link-local',
        message: `${what} is a link-local address; add it to TRIAD_DEVICES_ALLOW if a device really has one`,
      };
    if (any(MULTICAST)) return { rule: 'multicast', message: `${what} is a multicast address: name one device` };
    if (allow !== undefined && (allow.cidrs.length > 0 || allow.names.length > 0))
      return { rule: 'not-allowed', message: `${what} is not on the allow list (TRIAD_DEVICES_ALLOW)` };
    return undefined;
  }

  #isOwn(forms: readonly IpAddress[]): boolean {
    const own = [...LOOPBACK, ...UNSPECIFIED];
    for (const text of this.#options.ownAddresses?.() ?? []) {
      const cidr = parseCidr(text);
      if (cidr !== undefined) own.push({ ...cidr, prefix: cidr.family === 4 ? 32 : 128 });
    }
    return forms.some((form) => own.some((cidr) => inCidr(form, cidr)));
  }
}

function matchesName(names: readonly string[], name: string): boolean {
  return names.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : entry === name));
}
