import { describe, expect, it } from 'vitest';
import { AddressPolicy, parseAddressList, type AddressRule } from './address-policy.js';
import { embeddedIpv4, formatIp, parseIp, parseLooseIpv4 } from './ip-address.js';

describe('IP addresses', () => {
  it.each([
    ['2852039166', '169.254.169.254'],
    ['0xA9FEA9FE', '169.254.169.254'],
    ['0251.0376.0251.0376', '169.254.169.254'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
    ['169.254.43518', '169.254.169.254'],
    ['169.16689662', '169.254.169.254'],
    ['127.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
  ])('reads the loose IPv4 form %s as %s', (text, address) => {
    expect(formatIp(parseLooseIpv4(text)!)).toBe(address);
  });

  it.each(['256.1.1.1', '1.2.3.4.5', '08.1.1.1', '0x', '1.2.3.256', '4294967296', 'host', '-1'])(
    'takes %s for no IPv4 address',
    (text) => {
      expect(parseLooseIpv4(text)).toBeUndefined();
    },
  );

  it('reads IPv6 with brackets, zones and a dotted tail, and finds the IPv4 inside', () => {
    expect(formatIp(parseIp('[fd00:ec2::254]')!)).toBe('fd00:ec2::254');
    expect(formatIp(parseIp('fe80::1%eth0')!)).toBe('fe80::1');
    const mapped = parseIp('::ffff:169.254.169.254')!;
    expect(formatIp(mapped)).toBe('::ffff:a9fe:a9fe');
    expect(embeddedIpv4(mapped).map(formatIp)).toEqual(['169.254.169.254']);
    expect(embeddedIpv4(parseIp('64:ff9b::a9fe:a9fe')!).map(formatIp)).toEqual(['169.254.169.254']);
    expect(embeddedIpv4(parseIp('2002:a9fe:a9fe::1')!).map(formatIp)).toEqual(['169.254.169.254']);
    expect(embeddedIpv4(parseIp('::1')!)).toEqual([]);
  });
});

describe('AddressPolicy', () => {
  const policy = new AddressPolicy({ ownPorts: () => [8080, 8081, 8082], ownAddresses: () => ['192.0.2.10'] });
  const rule = (host: string, port?: number, on = policy): AddressRule | undefined => on.checkHost(host, port)?.rule;

  it.each([
    ['169.254.169.254', 'metadata'],
    ['2852039166', 'metadata'],
    ['0xA9FEA9FE', 'metadata'],
    ['0251.0376.0251.0376', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['METADATA.GOOGLE.INTERNAL.', 'metadata'],
    ['metadata.goog', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:169.254.1.1', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['[::]', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:255.255.255.255', 'broadcast'],
  ] as const)('refuses %s (%s)', (host, expected) => {
    expect(rule(host, 161)).toBe(expected);
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.0.10', 'fd12::1', '::1', 'plc-7.plant.example', 'localhost'])(
    'accepts %s by default',
    (host) => {
      expect(rule(host, 502)).toBeUndefined();
    },
  );

  it("refuses Triad's own ports on loopback and this host's addresses, in every form, and only there", () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1', '2130706433', '0x7f.1', '192.0.2.10'])
      expect(rule(host, 8080)).toBe('own-service');
    expect(rule('0.0.0.0', 8081)).toBe('unspecified');
    expect(rule('127.0.0.1', 1883)).toBeUndefined();
    expect(rule('10.0.0.5', 8080)).toBeUndefined();
  });

  it('lets the deny list win over everything, the allow list lift link-local, and limit the rest', () => {
    const { list: deny } = parseAddressList('10.9.0.0/16, plc.bad.example, *.lab.example');
    const { list: allow } = parseAddressList('10.0.0.0/8,169.254.10.0/24,fe80::/10,broker.example.');
    const strict = new AddressPolicy({ allow, deny, ownPorts: () => [8080] });
    expect(rule('10.9.1.1', 502, strict)).toBe('deny');
    expect(rule('::ffff:10.9.1.1', 502, strict)).toBe('deny');
    expect(rule('PLC.bad.example.', 502, strict)).toBe('deny');
    expect(rule('a.lab.example', 502, strict)).toBe('deny');
    expect(rule('10.1.1.1', 502, strict)).toBeUndefined();
    expect(rule('169.254.10.7', 502, strict)).toBeUndefined();
    expect(rule('169.254.169.254', 80, strict)).toBe('metadata');
    expect(rule('192.168.1.1', 502, strict)).toBe('not-allowed');
    expect(rule('127.0.0.1', 8080, strict)).toBe('own-service');
    // A name is checked by its addresses; the allow list names the name.
    expect(strict.checkAddress(parseIp('192.168.5.5')!, 1883, 'broker.example')).toBeUndefined();
    expect(strict.checkAddress(parseIp('10.9.0.1')!, 1883, 'broker.example')?.rule).toBe('deny');
    expect(strict.checkAddress(parseIp('192.168.5.5')!, 1883, 'other.example')?.rule).toBe('not-allowed');
  });

  it('names the entries of a list that are neither a block nor a name', () => {
    expect(parseAddressList('10.0.0.0/33, 1.2.3.4/x, bad name, ok.example').problems).toHaveLength(3);
    expect(parseAddressList('').list).toEqual({ cidrs: [], names: [] });
  });
});
