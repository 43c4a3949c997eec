import { createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../address-guard.js';
import { AddressPolicy } from '../../address-policy.js';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice } from '../../test-support/collect-device.js';
import { OPCUA_BAD_STATUS, startOpcuaServer, type OpcuaTestServer } from '../../test-support/opcua-server.js';
import { createOpcuaDriver } from './opcua-driver.js';
import { createApplicationCertificate, MemoryServerCertificateTrust, thumbprintOf } from './opcua-certificates.js';

const NODES = {
  state: '/Objects/Server/ServerStatus/State',
  currentTime: 'i=2258',
  productName: '/Objects/Server/ServerStatus/BuildInfo/ProductName',
  temperature: 'ns=1;s=Boiler.Temperature',
  pressureByPath: '/Objects/1:Boiler/1:Pressure',
  missing: '/Objects/1:Boiler/1:NoSuchThing',
  deadbandTemperature: {
    node: 'ns=1;s=Boiler.Temperature',
    samplingInterval: 50,
    deadband: { type: 'absolute', value: 1 },
  },
  deadbandPressure: { node: 'ns=1;s=Boiler.Pressure', samplingInterval: 50, deadband: { type: 'percent', value: 20 } },
};

type Point = readonly [id: string, dataType: string, address: string, receiveMode?: 'polling' | 'subscription'];

/** A template reading `points` through svc-ds-drv-opcua at the device's OPCUA_EndpointUrl. */
function template(points: readonly Point[], settings: Record<string, unknown> = {}): DeviceTemplate {
  return {
    templateId: 'opcua-test',
    templateVersion: '1.0.0',
    alias: 'OPC UA test',
    description: '',
    origin: '/{OPCUA_EndpointUrl}/',
    originTypes: [{ originType: 'svc-ds-drv-opcua', endpointUrl: '/{OPCUA_EndpointUrl}/', nodes: NODES, ...settings }],
    datapointSets: [
      {
        datapointSetId: 'server',
        datapointSetType: 'map',
        alias: 'Server',
        description: '',
        datapoints: points.map(([id, dataType, address, receiveMode = 'polling']) => ({
          commonConfig: { datapointId: id, datapointType: 'DATAPOINT', alias: id },
          addressConfig: {
            dataType,
            originType: 'svc-ds-drv-opcua',
            originDataType: 'Variant',
            originAddress: address,
            originAccessType: 'read-only',
            receiveMode,
            pollingGroup: '5s',
          },
        })),
      },
    ],
  } as unknown as DeviceTemplate;
}

function collect(
  server: { endpointUrl: string },
  points: readonly Point[],
  settings: Record<string, unknown> = {},
  registry = new DriverRegistry([createOpcuaDriver()]),
) {
  const binding = { variables: { OPCUA_EndpointUrl: server.endpointUrl } };
  return collectDevice(
    template(points, { connectTimeout: 3000, requestTimeout: 2000, ...settings }),
    binding,
    registry,
    {
      periodMs: 200,
    },
  );
}

const STATUS_POINTS: readonly Point[] = [
  ['state', 'INTEGER', 'state'],
  ['currentTime', 'DATE', 'currentTime'],
  ['productName', 'STRING', 'productName'],
  ['temperature', 'DOUBLE', 'temperature'],
  ['pressure', 'DOUBLE', 'pressureByPath'],
  ['counter', 'LONG', '1:s:Boiler.Counter'],
  ['name', 'STRING', '1:i:1001'],
  ['missing', 'DOUBLE', 'missing'],
];

describe('svc-ds-drv-opcua against a real OPC UA server (node-opcua)', () => {
  let server: OpcuaTestServer;

  beforeAll(async () => {
    server = await startOpcuaServer();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('reads by NodeId and browse path, in the datapoints declared types, and one missing node as bad', async () => {
    const run = collect(server, STATUS_POINTS);
    try {
      await run.collector.pollOnce();
      expect(run.collector.state).toBe('up');
      const values = Object.fromEntries(run.values.map((v) => [v.datapointId, [v.value, v.quality]]));
      expect(values).toMatchObject({
        state: [0, 'good'], // ServerState Running
        productName: ['Triad test server', 'good'],
        temperature: [21.5, 'good'],
        pressure: [1, 'good'],
        counter: [2 ** 32 + 5, 'good'],
        name: ['Boiler 1', 'good'],
        missing: [null, 'bad'],
      });
      expect(Date.parse(String(values['currentTime']?.[0]))).toBeGreaterThan(Date.now() - 60_000);
      expect(run.logs.join('\n')).toContain('server/missing: the server says BadNoMatch');
    } finally {
      await run.collector.stop();
    }
  });

  it('reads the server status of the starter template (triad templates init --driver opcua)', async () => {
    const starter = createStarterTemplate('opcua') as unknown as DeviceTemplate;
    const binding = { variables: { OPCUA_EndpointUrl: server.endpointUrl } };
    const run = collectDevice(starter, binding, new DriverRegistry([createOpcuaDriver()]));
    try {
      await run.collector.pollOnce();
      expect(run.collector.state).toBe('up');
      expect(run.origin).toBe(server.endpointUrl);
      expect(Object.fromEntries(run.values.map((v) => [v.datapointId, v.value]))).toMatchObject({
        state: 0,
        productName: 'Triad test server',
        softwareVersion: '1.2.3',
        currentTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      });
      expect(run.events.filter((e) => e.type === 'alarm-raised')).toEqual([]);
    } finally {
      await run.collector.stop();
    }
  });

  it('reads a value the server marks bad as null with quality bad, naming the status in the log', async () => {
    server.setTemperatureStatus(OPCUA_BAD_STATUS);
    const run = collect(server, [['temperature', 'DOUBLE', 'temperature']]);
    try {
      await run.collector.pollOnce();
      expect(run.last('temperature')).toMatchObject({ value: null, quality: 'bad' });
      expect(run.logs.join('\n')).toContain('the server says BadSensorFailure');
      expect(run.collector.state).toBe('up');
    } finally {
      server.setTemperature(21.5);
      await run.collector.stop();
    }
  });

  it('subscribes with absolute and percent deadbands: changes inside the deadband are not reported', async () => {
    const run = collect(
      server,
      [
        ['temperature', 'DOUBLE', 'deadbandTemperature', 'subscription'],
        ['pressure', 'DOUBLE', 'deadbandPressure', 'subscription'],
        ['name', 'STRING', '1:i:1001'],
      ],
      { publishingInterval: 100 },
    );
    const seen = (id: string) => run.values.filter((v) => v.datapointId === id).map((v) => v.value);
    try {
      server.setTemperature(20);
      server.setPressure(1);
      run.collector.start();
      await expect.poll(() => seen('temperature'), { timeout: 10_000 }).toEqual([20]);
      await expect.poll(() => seen('pressure'), { timeout: 5_000 }).toEqual([1]);
      await expect.poll(() => run.last('name')?.value, { timeout: 5_000 }).toBe('Boiler 1');
      server.setTemperature(20.5); // inside the absolute deadband of 1
      server.setPressure(2.5); // 15 % of the 0-10 EURange, inside 20 %
      await new Promise((resolve) => setTimeout(resolve, 600));
      server.setTemperature(22); // outside
      server.setPressure(4); // 30 %, outside
      await expect.poll(() => seen('temperature'), { timeout: 5_000 }).toEqual([20, 22]);
      await expect.poll(() => seen('pressure'), { timeout: 5_000 }).toEqual([1, 4]);
      expect(run.collector.state).toBe('up');
    } finally {
      await run.collector.stop();
      server.setTemperature(21.5);
    }
  });

  it('is refused by the device address policy before anything is sent', async () => {
    const guard = new AddressGuard(new AddressPolicy({ ownPorts: () => [server.port] }));
    const run = collect(
      server,
      [['temperature', 'DOUBLE', 'temperature']],
      {},
      new DriverRegistry([createOpcuaDriver()], guard),
    );
    try {
      await run.collector.pollOnce();
      expect(run.collector.state).toBe('down');
      expect(run.states.at(-1)?.error).toMatchObject({ code: 'forbidden' });
    } finally {
      await run.collector.stop();
    }
  });

  describe('security', () => {
    it.each([
      ['Sign', 'Basic256Sha256'],
      ['SignAndEncrypt', 'Basic256Sha256'],
    ])('reads over %s with %s, trusting the server certificate on first use', async (securityMode, securityPolicy) => {
      const run = collect(server, [['temperature', 'DOUBLE', 'temperature']], { securityMode, securityPolicy });
      try {
        await run.collector.pollOnce();
        expect(run.states.map((s) => s.state)).toEqual(['up']);
        expect(run.last('temperature')).toMatchObject({ value: 21.5, quality: 'good' });
      } finally {
        await run.collector.stop();
      }
    });

    it('reads when serverCertificate is the server thumbprint, and refuses another one naming both', async () => {
      const thumbprint = thumbprintOf(server.certificate());
      const pinned = collect(server, [['temperature', 'DOUBLE', 'temperature']], {
        securityMode: 'SignAndEncrypt',
        serverCertificate: thumbprint.toUpperCase().replace(/(..)(?!$)/g, '$1:'),
      });
      const wrong = collect(server, [['temperature', 'DOUBLE', 'temperature']], {
        securityMode: 'SignAndEncrypt',
        serverCertificate: '00'.repeat(20),
      });
      try {
        await pinned.collector.pollOnce();
        expect(pinned.last('temperature')).toMatchObject({ value: 21.5, quality: 'good' });
        await wrong.collector.pollOnce();
        expect(wrong.collector.state).toBe('down');
        const error = wrong.states.at(-1)?.error;
        expect(error?.code).toBe('authentication');
        expect(error?.message).toContain(
          `the server's certificate (SHA-1 ${thumbprint}) is not the one serverCertificate`,
        );
        expect(error?.message).toContain(`set serverCertificate to ${thumbprint}`);
      } finally {
        await pinned.collector.stop();
        await wrong.collector.stop();
      }
    });

    it('refuses a server whose certificate changed since first use', async () => {
      // First use of this endpoint saw another certificate.
      const memory = new MemoryServerCertificateTrust();
      await memory.check(server.endpointUrl, 'ab'.repeat(20));
      const run = collect(
        server,
        [['temperature', 'DOUBLE', 'temperature']],
        { securityMode: 'Sign' },
        new DriverRegistry([createOpcuaDriver({ trust: memory })]),
      );
      try {
        await run.collector.pollOnce();
        expect(run.states.at(-1)?.error?.message).toContain("the server's certificate changed");
      } finally {
        await run.collector.stop();
      }
    });

    it('opens the session as a user with a password, and says so when the password is wrong', async () => {
      const good = collect(server, [['temperature', 'DOUBLE', 'temperature']], {
        securityMode: 'SignAndEncrypt',
        identity: { type: 'username', userName: 'operator', password: 'secret' },
      });
      const bad = collect(server, [['temperature', 'DOUBLE', 'temperature']], {
        securityMode: 'SignAndEncrypt',
        identity: { type: 'username', userName: 'operator', password: 'wrong' },
      });
      try {
        await good.collector.pollOnce();
        expect(good.last('temperature')).toMatchObject({ value: 21.5, quality: 'good' });
        await bad.collector.pollOnce();
        expect(bad.states.at(-1)?.error).toMatchObject({ code: 'authentication' });
        expect(bad.states.at(-1)?.error?.message).toContain('the server refused the identity (username)');
      } finally {
        await good.collector.stop();
        await bad.collector.stop();
      }
    });

    it('opens the session with a user certificate', async () => {
      const user = await createApplicationCertificate('urn:triad:test-user');
      const run = collect(server, [['temperature', 'DOUBLE', 'temperature']], {
        securityMode: 'SignAndEncrypt',
        identity: { type: 'certificate', certificate: user.certificatePem, privateKey: user.privateKeyPem },
      });
      try {
        await run.collector.pollOnce();
        expect(run.last('temperature')).toMatchObject({ value: 21.5, quality: 'good' });
      } finally {
        await run.collector.stop();
      }
    });
  });
});

describe('svc-ds-drv-opcua when the server goes away', () => {
  it('goes down when the server stops and reads and subscribes again when it is back on its port', async () => {
    let server = await startOpcuaServer();
    const { port, pkiDir } = server;
    const run = collect(
      server,
      [
        ['temperature', 'DOUBLE', 'temperature'],
        ['pressure', 'DOUBLE', 'deadbandPressure', 'subscription'],
      ],
      { publishingInterval: 100 },
    );
    try {
      run.collector.start();
      await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('up');
      await expect.poll(() => run.last('pressure')?.value, { timeout: 5_000 }).toBe(1);
      await server.stop(false);
      await expect.poll(() => run.collector.state, { timeout: 10_000 }).toBe('down');
      // The lost connection may report the device down before the next poll marks its values bad.
      await expect.poll(() => run.last('temperature')?.quality, { timeout: 10_000 }).toBe('bad');
      expect(run.last('temperature')).toMatchObject({ value: null, quality: 'bad' });
      server = await startOpcuaServer({ port, pkiDir });
      server.setPressure(7);
      await expect.poll(() => run.collector.state, { timeout: 20_000 }).toBe('up');
      await expect.poll(() => run.last('temperature')?.value, { timeout: 5_000 }).toBe(21.5);
      await expect.poll(() => run.last('pressure')?.value, { timeout: 10_000 }).toBe(7);
    } finally {
      await run.collector.stop();
      await server.stop();
    }
  }, 90_000);

  it('gives up connecting after connectTimeout to a port that never answers', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const run = collect({ endpointUrl: `opc.tcp://127.0.0.1:${port}` }, [['temperature', 'DOUBLE', 'temperature']], {
      connectTimeout: 500,
    });
    try {
      const started = Date.now();
      await run.collector.pollOnce();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(run.states.at(-1)?.error).toMatchObject({ code: 'timeout' });
    } finally {
      await run.collector.stop();
      silent.close();
    }
  });
});
