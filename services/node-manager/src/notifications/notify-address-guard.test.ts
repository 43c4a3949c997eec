import { describe, expect, it } from 'vitest';
import { parseAddressList, type ResolveAll } from '@triad/device-drivers';
import { NotifyAddressGuard, TargetRefusedError } from './notify-address-guard.js';

/** A resolver answering from a table, as DNS would. */
const table =
  (answers: Record<string, string[]>): ResolveAll =>
  (host) =>
    Promise.resolve((answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

const guard = (allow = '', deny = '', answers: Record<string, string[]> = {}) =>
  new NotifyAddressGuard({
    allow: parseAddressList(allow).list,
    deny: parseAddressList(deny).list,
    ownPorts: () => [8080],
    resolve: table(answers),
  });

describe('NotifyAddressGuard', () => {
  it.each([
    ['127.0.0.1', 80, 'private'],
    ['::1', 80, 'private'],
    ['10.0.0.7', 443, 'private'],
    ['172.20.1.1', 443, 'private'],
    ['192.168.0.1', 443, 'private'],
    ['fd00::1', 443, 'private'],
    ['169.254.169.254', 80, 'metadata'],
    ['169.254.10.10', 80, 'link-local'],
    ['0.0.0.0', 80, 'unspecified'],
    ['224.0.0.1', 80, 'multicast'],
    ['::ffff:127.0.0.1', 80, 'private'],
    ['2130706433', 80, 'private'],
    ['localhost', 80, 'private'],
    ['metadata.google.internal', 80, 'metadata'],
  ])('refuses %s:%d (%s) by default', (host, port, rule) => {
    expect(guard().checkHost(host, port)?.rule).toBe(rule);
  });

  it('accepts public addresses and names before resolution', () => {
    expect(guard().checkHost('93.184.216.34', 443)).toBeUndefined();
    expect(guard().checkHost('hooks.slack.com', 443)).toBeUndefined();
  });

  it('lets the allow list admit loopback and private hosts, but never metadata or its own ports', () => {
    const allowing = guard('127.0.0.1,10.0.0.0/8,mail.internal');
    expect(allowing.checkHost('127.0.0.1', 2525)).toBeUndefined();
    expect(allowing.checkHost('10.3.4.5', 25)).toBeUndefined();
    expect(allowing.checkHost('127.0.0.2', 25)?.rule).toBe('private');
    expect(allowing.checkHost('127.0.0.1', 8080)?.rule).toBe('own-service');
    expect(guard('169.254.169.254').checkHost('169.254.169.254', 80)?.rule).toBe('metadata');
  });

  it('refuses what the deny list names, allowed or not', () => {
    expect(guard('', 'evil.example.com,203.0.113.0/24').checkHost('evil.example.com', 443)?.rule).toBe('deny');
    expect(guard('203.0.113.5', '203.0.113.0/24').checkHost('203.0.113.5', 443)?.rule).toBe('deny');
  });

  it('resolves names and refuses them when any address is refused', async () => {
    const answers = {
      'public.example.com': ['93.184.216.34'],
      'rebind.example.com': ['93.184.216.34', '10.0.0.1'],
      'mail.internal': ['10.1.1.1'],
    };
    await expect(guard('', '', answers).resolve('public.example.com', 443)).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    const refused = guard('', '', answers).resolve('rebind.example.com', 443);
    await expect(refused).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(refused).rejects.toThrow(
      'refused by the notification address policy (private): rebind.example.com (10.0.0.1) is a loopback or ' +
        'private address; add it to TRIAD_NOTIFY_ALLOW if notifications are really meant to go there',
    );
    await expect(guard('mail.internal', '', answers).resolve('mail.internal', 25)).resolves.toHaveLength(1);
  });
});
