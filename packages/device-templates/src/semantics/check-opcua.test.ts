import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode, type Fixture } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';
import { parseCompactNodeId, parseOpcuaNode } from './opcua-settings.js';

/** The valid template with an OPC UA driver entry (index 2) and a set of two datapoints reading it. */
function opcuaTemplate(settings: Fixture = {}): Fixture {
  const t = validTemplate();
  listAt(t, 'originTypes').push({
    originType: 'svc-ds-drv-opcua',
    endpointUrl: '/{OPCUA_EndpointUrl}/',
    securityMode: 'SignAndEncrypt',
    securityPolicy: 'Basic256Sha256',
    identity: { type: 'anonymous' },
    nodes: {
      state: '/Objects/Server/ServerStatus/State',
      temperature: {
        node: 'ns=2;s=Boiler.Temperature',
        samplingInterval: 500,
        deadband: { type: 'absolute', value: 1 },
      },
    },
    ...settings,
  });
  const point = (id: string, originAddress: string) => ({
    commonConfig: { datapointId: id, datapointType: 'DATAPOINT', alias: id },
    addressConfig: {
      dataType: 'DOUBLE',
      originType: 'svc-ds-drv-opcua',
      originDataType: 'Double',
      originAddress,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: '5s',
    },
  });
  listAt(t, 'datapointSets').push({
    datapointSetId: 'opcua',
    datapointSetType: 'map',
    alias: 'OPC UA',
    description: '',
    datapoints: [point('state', 'state'), point('temperature', 'temperature'), point('uptime', 'i:2259')],
  });
  return t;
}

const OPCUA_CODES = /OPCUA/;

describe('checkOpcua', () => {
  it('accepts a driver entry with nodes by NodeId and browse path, and compact NodeId addresses', () => {
    expect(semanticWarnings(opcuaTemplate()).filter((p) => OPCUA_CODES.test(p.code))).toEqual([]);
  });

  it('refuses SignAndEncrypt with securityPolicy None as an error that says how to fix it', () => {
    const [problem] = withCode(
      semanticWarnings(opcuaTemplate({ securityPolicy: 'None' })),
      'DT_ERR_SEM_OPCUA_SECURITY_MISMATCH',
    );
    expect(problem).toMatchObject({ severity: 'error', path: '/originTypes/2/securityPolicy' });
    expect(problem!.message).toContain('securityMode SignAndEncrypt needs a security policy that signs and encrypts');
    expect(problem!.message).toContain('set securityPolicy to Basic256Sha256');
  });

  it('refuses securityMode None with a signing policy', () => {
    const [problem] = withCode(
      semanticWarnings(opcuaTemplate({ securityMode: 'None' })),
      'DT_ERR_SEM_OPCUA_SECURITY_MISMATCH',
    );
    expect(problem!.message).toContain('securityPolicy Basic256Sha256 is used only with message security');
  });

  it('takes Sign without a policy as Basic256Sha256, and no security at all as None', () => {
    const { securityPolicy: _policy, ...rest } = objectAt(opcuaTemplate(), 'originTypes', 2);
    for (const securityMode of ['Sign', undefined]) {
      const t = opcuaTemplate();
      listAt(t, 'originTypes')[2] = { ...rest, ...(securityMode !== undefined ? { securityMode } : {}) };
      if (securityMode === undefined) delete objectAt(t, 'originTypes', 2)['securityMode'];
      expect(withCode(semanticWarnings(t), 'DT_ERR_SEM_OPCUA_SECURITY_MISMATCH')).toEqual([]);
    }
  });

  it('warns on an unknown security mode, policy or identity type and suggests the near one', () => {
    const wrong = { securityMode: 'SignEncrypt', securityPolicy: 'basic256sha256', identity: { type: 'Username' } };
    const problems = withCode(semanticWarnings(opcuaTemplate(wrong)), 'DT_WARN_SEM_OPCUA_SETTING_UNKNOWN');
    expect(problems.map((p) => [p.path, p.suggestion])).toEqual([
      ['/originTypes/2/securityMode', 'SignAndEncrypt'],
      ['/originTypes/2/securityPolicy', 'Basic256Sha256'],
      ['/originTypes/2/identity/type', 'username'],
    ]);
    // A wrong word is not also a mismatch.
    expect(
      withCode(semanticWarnings(opcuaTemplate({ securityMode: 'x' })), 'DT_ERR_SEM_OPCUA_SECURITY_MISMATCH'),
    ).toEqual([]);
  });

  it('warns on an endpoint that is not opc.tcp and on a missing one', () => {
    const [wrong] = withCode(
      semanticWarnings(opcuaTemplate({ endpointUrl: 'http://plc:4840' })),
      'DT_WARN_SEM_OPCUA_ENDPOINT_INVALID',
    );
    expect(wrong!.message).toContain("is not an opc.tcp:// URL; write it as 'opc.tcp://host:4840'");
    const t = opcuaTemplate();
    delete objectAt(t, 'originTypes', 2)['endpointUrl'];
    const [missing] = withCode(semanticWarnings(t), 'DT_WARN_SEM_OPCUA_ENDPOINT_INVALID');
    expect(missing!.message).toContain('has no endpointUrl');
  });

  it('warns on a node that is neither NodeId nor browse path, and on a bad numeric identifier', () => {
    const problems = withCode(
      semanticWarnings(opcuaTemplate({ nodes: { state: 'Server.ServerStatus', temperature: 'ns=2;i=x' } })),
      'DT_WARN_SEM_OPCUA_NODE_INVALID',
    );
    expect(problems.map((p) => p.path)).toEqual(['/originTypes/2/nodes/state', '/originTypes/2/nodes/temperature']);
    expect(problems[0]!.message).toContain('is neither a NodeId nor a browse path');
    expect(problems[1]!.message).toContain('must be a whole number');
  });

  it('warns on an originAddress that names no node and suggests the near name', () => {
    const t = opcuaTemplate();
    objectAt(t, 'datapointSets', 3, 'datapoints', 1, 'addressConfig').originAddress = 'temprature';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_OPCUA_ADDRESS_UNKNOWN');
    expect(problem).toMatchObject({
      path: '/datapointSets/3/datapoints/1/addressConfig/originAddress',
      suggestion: 'temperature',
    });
  });
});

describe('OPC UA node references', () => {
  it.each([
    ['i=2258', 'i=2258'],
    ['ns=2;s=Boiler.Temperature', 'ns=2;s=Boiler.Temperature'],
    ['nsu=urn:x;s=T', 'nsu=urn:x;s=T'],
    ['ns=1;g=72962b91-fa75-4ae6-8d28-b404dc7daf63', 'ns=1;g=72962b91-fa75-4ae6-8d28-b404dc7daf63'],
  ])('reads the NodeId %s', (text, nodeId) => {
    expect(parseOpcuaNode(text)).toEqual({ ok: true, node: { kind: 'nodeId', nodeId } });
  });

  it('reads a browse path with namespace indexes', () => {
    expect(parseOpcuaNode('/Objects/2:Boiler/2:Temperature')).toEqual({
      ok: true,
      node: {
        kind: 'path',
        path: '/Objects/2:Boiler/2:Temperature',
        elements: [
          { namespaceIndex: 0, name: 'Objects' },
          { namespaceIndex: 2, name: 'Boiler' },
          { namespaceIndex: 2, name: 'Temperature' },
        ],
      },
    });
    expect(parseOpcuaNode('/Objects//Server')).toMatchObject({ ok: false });
  });

  it('reads the compact NodeIds an originAddress may hold', () => {
    expect(parseCompactNodeId('i:2258')).toEqual({ ok: true, node: { kind: 'nodeId', nodeId: 'i=2258' } });
    expect(parseCompactNodeId('2:s:Boiler.Temp')).toEqual({
      ok: true,
      node: { kind: 'nodeId', nodeId: 'ns=2;s=Boiler.Temp' },
    });
    expect(parseCompactNodeId('temperature')).toBeUndefined();
    expect(parseCompactNodeId('i:x')).toMatchObject({ ok: false });
  });
});
