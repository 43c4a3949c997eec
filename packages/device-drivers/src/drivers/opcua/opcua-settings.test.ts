import { DataType, Variant, VariantArrayType } from 'node-opcua-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpcuaDriver } from './opcua-driver.js';
import { loadOpcua } from './opcua-library.js';
import { opcuaSettings } from './opcua-settings.js';
import { plainVariant } from './opcua-values.js';

const driver = createOpcuaDriver();
const base = { endpointUrl: 'opc.tcp://plc.example:4841/ua' };

describe('OPC UA settings', () => {
  it('reads an endpoint with defaults: port 4840, security None, anonymous, trust on first use', () => {
    expect(opcuaSettings({ endpointUrl: 'opc.tcp://plc.example' })).toMatchObject({
      host: 'plc.example',
      port: 4840,
      path: '',
      securityMode: 'None',
      securityPolicy: 'None',
      identity: { type: 'anonymous' },
      serverCertificate: undefined,
    });
    expect(driver.targets(base)).toEqual([{ host: 'plc.example', port: 4841, path: 'endpointUrl' }]);
    expect(opcuaSettings({ endpointUrl: 'opc.tcp://[::1]:4840' })).toMatchObject({ host: '::1', port: 4840 });
  });

  it.each([
    [{ endpointUrl: 'http://plc:4840' }, 'endpointUrl must be an opc.tcp:// URL'],
    [{ endpointUrl: '/{OPCUA_EndpointUrl}/' }, 'still holds the placeholder'],
    [{ ...base, securityMode: 'SignAndEncrypt', securityPolicy: 'None' }, 'set securityPolicy to Basic256Sha256'],
    [{ ...base, securityPolicy: 'Basic256Sha256' }, 'set securityMode to Sign or SignAndEncrypt'],
    [{ ...base, securityMode: 'Encrypt' }, 'securityMode must be None, Sign, SignAndEncrypt'],
    [{ ...base, identity: { type: 'username' } }, 'identity.userName is required'],
    [
      { ...base, identity: { type: 'certificate', certificate: 'x' } },
      'needs identity.certificate and identity.privateKey',
    ],
    [{ ...base, serverCertificate: 'abc' }, 'serverCertificate must be the SHA-1 thumbprint'],
    [{ ...base, nodes: { t: 'Boiler.Temp' } }, 'nodes.t: "Boiler.Temp" is neither a NodeId nor a browse path'],
    [{ ...base, nodes: { t: { node: 'i=1', deadband: { type: 'relative' } } } }, 'nodes.t.deadband.type must be'],
  ])('refuses %j saying how to fix it', (config, message) => {
    expect(driver.check(config).join('\n')).toContain(message);
    expect(driver.targets(config)).toEqual([]);
  });

  it('takes Sign without a policy as Basic256Sha256 and a thumbprint with colons', () => {
    const thumbprint = 'AB:'.repeat(19) + 'AB';
    expect(opcuaSettings({ ...base, securityMode: 'Sign', serverCertificate: thumbprint })).toMatchObject({
      securityPolicy: 'Basic256Sha256',
      serverCertificate: 'ab'.repeat(20),
    });
  });

  it('keeps passwords and private keys among the secrets, and timing and nodes as tuning', () => {
    expect(driver.secretKeys).toEqual(['identity.password', 'identity.privateKey', 'clientCertificate.privateKey']);
    expect(driver.tuningKeys).toContain('nodes');
    expect(driver.tuningKeys).not.toContain('endpointUrl');
  });
});

describe('OPC UA values in JSON terms', () => {
  beforeAll(() => loadOpcua());

  it.each([
    [
      new Variant({ dataType: DataType.Int64, arrayType: VariantArrayType.Scalar, value: [0xffffffff, 0xfffffffe] }),
      -2,
    ],
    [
      new Variant({ dataType: DataType.UInt64, arrayType: VariantArrayType.Scalar, value: [0xffffffff, 0xffffffff] }),
      '18446744073709551615',
    ],
    [new Variant({ dataType: DataType.DateTime, value: new Date(Date.UTC(2026, 0, 2)) }), '2026-01-02T00:00:00.000Z'],
    [new Variant({ dataType: DataType.LocalizedText, value: { text: 'Running', locale: 'en' } }), 'Running'],
    [new Variant({ dataType: DataType.QualifiedName, value: { namespaceIndex: 2, name: 'Boiler' } }), '2:Boiler'],
    [new Variant({ dataType: DataType.ByteString, value: Buffer.from([1, 2, 255]) }), 'AQL/'],
    [new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: [1.5, 2] }), [1.5, 2]],
  ])('%s', (variant, expected) => {
    expect(plainVariant(variant)).toEqual(expected);
  });
});
