import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { AddressGuard, AddressRefusedError } from './address-guard.js';
import { AddressPolicy, parseAddressList } from './address-policy.js';
import { modbusTcpDriver } from './drivers/modbus-tcp/modbus-tcp-driver.js';
import { connectMqttJs } from './drivers/mqtt/connect-mqtt-js.js';
import { mqttSettings } from './drivers/mqtt/mqtt-settings.js';

/** A resolver whose answers a test sets, counting the questions. */
function fakeResolver(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = (host: string): Promise<readonly LookupAddress[]> => {
    asked.push(host);
    const found = answers[host];
    if (found === undefined) return Promise.reject(Object.assign(new Error(`${host}: unknown`), { code: 'ENOTFOUND' }));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { resolve, asked };
}

async function listener() {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('AddressGuard', () => {
  it('refuses a name when any of its addresses is refused, and never asks DNS about a numeric form', async () => {
    const dns = fakeResolver({
      'plc.example': ['10.0.0.7', '169.254.169.254'],
      'ok.example': ['10.0.0.8'],
    });
    const guard = new AddressGuard(new AddressPolicy(), dns.resolve);
    await expect(guard.resolve('plc.example', 502)).rejects.toMatchObject({
      code: 'forbidden',
      refusal: { rule: 'metadata' },
    });
    await expect(guard.resolve('ok.example', 502)).resolves.toEqual([{ address: '10.0.0.8', family: 4 }]);
    await expect(guard.resolve('0xA9FEA9FE', 80)).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(guard.resolve('127.1', 502)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(guard.resolve('metadata.google.internal.', 80)).rejects.toBeInstanceOf(AddressRefusedError);
    expect(dns.asked).toEqual(['plc.example', 'ok.example']);
  });

  it('checks at every connection: a name whose answer moves to a refused address gets no second socket', async () => {
    const target = await listener();
    try {
      const answers: Record<string, string[]> = { 'moving.example': ['127.0.0.1'] };
      const guard = new AddressGuard(new AddressPolicy(), fakeResolver(answers).resolve);
      const attempt = () =>
        new Promise<Error | undefined>((resolve) => {
          const socket = connect({ host: 'moving.example', port: target.port, lookup: guard.lookup(target.port) });
          socket.on('connect', () => {
            socket.destroy();
            resolve(undefined);
          });
          socket.on('error', (error) => resolve(error));
        });
      expect(await attempt()).toBeUndefined();
      await expect.poll(() => target.connections()).toBe(1);
      answers['moving.example'] = ['169.254.169.254'];
      expect(await attempt()).toBeInstanceOf(AddressRefusedError);
      answers['moving.example'] = ['10.0.0.1', '::ffff:127.0.0.1'];
      const own = new AddressGuard(new AddressPolicy({ ownPorts: () => [target.port] }), fakeResolver(answers).resolve);
      await expect(own.resolve('moving.example', target.port)).rejects.toMatchObject({
        refusal: { rule: 'own-service' },
      });
      expect(target.connections()).toBe(1);
    } finally {
      target.server.close();
    }
  });

  it('keeps the Modbus driver off a name resolving to a refused address: forbidden, nothing sent', async () => {
    const target = await listener();
    try {
      const dns = fakeResolver({ 'gateway.example': ['127.0.0.1'] });
      const deny = new AddressPolicy({ deny: parseAddressList('127.0.0.0/8').list });
      const driver = modbusTcpDriver.create({
        config: { address: 'gateway.example', port: target.port, timeout: 500 },
        origin: 'gateway',
        guard: new AddressGuard(deny, dns.resolve),
      });
      if (driver.kind !== 'polling') throw new Error('Modbus polls');
      const read = driver.read(
        {
          points: [
            {
              datapointSetId: 's',
              datapointId: 'p',
              originAddress: '40001',
              originDataType: 'UINT16',
              dataType: 'INTEGER',
              receiveMode: 'polling',
              pollingGroup: '5s',
            },
          ],
          tables: [],
        },
        new AbortController().signal,
      );
      const failure = await read.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AddressRefusedError);
      expect((failure as AddressRefusedError).message).toContain('(deny)');
      await driver.close();
      expect(target.connections()).toBe(0);
      expect(dns.asked).toEqual(['gateway.example']);
    } finally {
      target.server.close();
    }
  });

  it.each(['mqtt', 'ws'])(
    'sends an MQTT %s:// connection only to a checked address of the broker name',
    async (scheme) => {
      const target = await listener();
      try {
        const answers = { 'broker.example': ['127.0.0.1'] };
        const { connection } = mqttSettings(
          {
            brokerUrl: `${scheme}://broker.example:${target.port}/mqtt`,
            reconnectPeriod: 60_000,
            topics: [{ topicName: 'a/+/b', datapointSet: 's', originStrategy: { strategyId: 'topic' } }],
          },
          'mqtt://127.0.0.1:1883',
        );
        // The first error of the first connection attempt, if any (MQTT.js may report the close first).
        const attempt = (guard: AddressGuard) =>
          new Promise<unknown>((resolve) => {
            let failure: unknown;
            const client = connectMqttJs(connection, guard);
            client.on('error', (error) => (failure ??= error));
            client.on('close', () => setTimeout(() => client.end(true, () => resolve(failure)), 50));
          });
        const refused = await attempt(
          new AddressGuard(
            new AddressPolicy({ deny: parseAddressList('127.0.0.0/8').list }),
            fakeResolver(answers).resolve,
          ),
        );
        expect(refused).toBeInstanceOf(AddressRefusedError);
        expect(target.connections()).toBe(0);
        await attempt(new AddressGuard(new AddressPolicy(), fakeResolver(answers).resolve));
        expect(target.connections()).toBe(1);
      } finally {
        target.server.close();
      }
    },
  );
});
