/**
 * IP addresses and CIDR blocks as bytes, for the device address policy: strict parsing of the
 * usual forms, the loose IPv4 forms the C library also accepts (`2852039166`, `0xA9FEA9FE`,
 * `0251.0376.0251.0376`, `169.254.43518`), and the IPv4 addresses an IPv6 address carries inside
 * it (IPv4-mapped, IPv4-compatible, NAT64, 6to4). Pure: no name resolution.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
}

/** A CIDR block: the address's first `prefix` bits. */
export interface Cidr extends IpAddress {
  readonly prefix: number;
}

/**
 * An IP address written the usual way: `10.0.0.7`, `fd00::1`, `[fd00::1]`, `fe80::1%eth0` (the
 * zone is dropped); `undefined` for anything else.
 */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const address = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  if (isIPv4(address)) return { family: 4, bytes: address.split('.').map(Number) };
  if (!isIPv6(address)) return undefined;
  return { family: 6, bytes: ipv6Bytes(address) };
}

/**
 * An IPv4 address in any form `inet_aton` takes: one to four parts, each decimal, octal (leading
 * `0`) or hexadecimal (`0x`), the last part filling the remaining bytes. `undefined` otherwise.
 */
export function parseLooseIpv4(text: string): IpAddress | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]+$/i.test(part)) value = parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = parseInt(part, 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = Number(part);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((value) => value > 255)) return undefined;
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return undefined;
  const bytes = [...values];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return { family: 4, bytes };
}

/** The usual text of an address (`10.0.0.7`, `fd00::1` without compression of single groups). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return ip.bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  // Compress the longest run of two or more zero groups, as RFC 5952 says.
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best === -1) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLength).join(':')}`;
}

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible
 * (`::a.b.c.d`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`) and 6to4 (`2002:AABB:CCDD::/48`).
 */
export function embeddedIpv4(ip: IpAddress): IpAddress[] {
  if (ip.family === 4) return [];
  const b = ip.bytes;
  const zeros = (from: number, to: number) => b.slice(from, to).every((byte) => byte === 0);
  const tail: IpAddress = { family: 4, bytes: b.slice(12, 16) };
  const out: IpAddress[] = [];
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) out.push(tail);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  else if (zeros(0, 12) && !zeros(12, 15)) out.push(tail);
  if (
    b[0] === 0x00 &&
    b[1] === 0x64 &&
    b[2] === 0xff &&
    b[3] === 0x9b &&
    (zeros(4, 12) || (b[5] === 1 && zeros(6, 12)))
  )
    out.push(tail);
  if (b[0] === 0x20 && b[1] === 0x02) out.push({ family: 4, bytes: b.slice(2, 6) });
  return out;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (`/32`, `/128`); `undefined` when not one. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.lastIndexOf('/');
  const ip = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (ip === undefined) return undefined;
  const max = ip.family === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { ...ip, prefix: Number(prefixText) };
}

/** Whether `ip` lies in `cidr` (same family only). */
export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const bits = Math.min(8, cidr.prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[bit / 8]! & mask) !== (cidr.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

function ipv6Bytes(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail.push(
      ...text
        .slice(lastColon + 1)
        .split('.')
        .map(Number),
    );
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groupsOf(head);
  const right = rest === undefined ? [] : groupsOf(rest);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((group) => [group >> 8, group & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}
