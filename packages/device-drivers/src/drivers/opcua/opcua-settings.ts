/**
 * The configuration of `svc-ds-drv-opcua`, read and checked once: the endpoint, message security,
 * the identity the session is opened as, how the server's certificate is trusted, timing, and the
 * `nodes` the datapoints name (docs/devices.md, "OPC UA"; decision 0048).
 */
import {
  effectiveSecurityPolicy,
  OPCUA_DEADBAND_TYPES,
  OPCUA_IDENTITY_TYPES,
  OPCUA_SECURITY_MODES,
  OPCUA_SECURITY_POLICIES,
  parseOpcuaNode,
  securityMismatch,
  type OpcuaNodeReference,
} from '@triad/device-templates';
import { isObject } from '@triad/common';
import { assertFilled, numberAt, stringAt, valueAt } from '../../config-values.js';
import { DriverError } from '../../driver-error.js';

export const OPCUA_ORIGIN_TYPE = 'svc-ds-drv-opcua';

export type OpcuaSecurityMode = 'None' | 'Sign' | 'SignAndEncrypt';
export type OpcuaSecurityPolicy = 'None' | 'Basic256Sha256';

export type OpcuaIdentity =
  | { readonly type: 'anonymous' }
  | { readonly type: 'username'; readonly userName: string; readonly password: string }
  | { readonly type: 'certificate'; readonly certificate: string; readonly privateKey: string };

/** A node a datapoint reads, with how it is sampled when subscribed. */
export interface OpcuaNodeSettings {
  readonly node: OpcuaNodeReference;
  /** Milliseconds between the server's samples of a subscribed node; undefined: the publishing interval. */
  readonly samplingInterval: number | undefined;
  readonly deadband: { readonly type: 'none' | 'absolute' | 'percent'; readonly value: number };
}

export interface OpcuaSettings {
  /** The endpoint as configured (`opc.tcp://host:port/path`). */
  readonly endpointUrl: string;
  readonly host: string;
  readonly port: number;
  /** The path after host and port, with its leading `/`, or empty. */
  readonly path: string;
  readonly securityMode: OpcuaSecurityMode;
  readonly securityPolicy: OpcuaSecurityPolicy;
  readonly identity: OpcuaIdentity;
  /**
   * The SHA-1 thumbprint (lower-case hex) of the only server certificate trusted; undefined: the
   * first certificate seen is trusted and a different one later is refused (trust on first use).
   */
  readonly serverCertificate: string | undefined;
  /** This client's own application certificate and key (PEM); undefined: one made by the driver. */
  readonly clientCertificate: { readonly certificate: string; readonly privateKey: string } | undefined;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly publishingIntervalMs: number;
  /** Nodes read per Read request. */
  readonly maxNodesPerRead: number;
  /** The `nodes` entries by name. */
  readonly nodes: ReadonlyMap<string, OpcuaNodeSettings>;
}

/** Default port of opc.tcp (IANA). */
export const OPCUA_DEFAULT_PORT = 4840;

export function opcuaSettings(config: Readonly<Record<string, unknown>>): OpcuaSettings {
  const endpointUrl = assertFilled('endpointUrl', stringAt(config, 'endpointUrl').trim());
  const match = /^opc\.tcp:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?(\/\S*)?$/.exec(endpointUrl);
  if (match === null || match[1]?.startsWith('-'))
    throw new DriverError(
      'configuration',
      `endpointUrl must be an opc.tcp:// URL such as opc.tcp://plc.example:4840; it is ${JSON.stringify(endpointUrl)}`,
    );
  const port = match[2] === undefined ? OPCUA_DEFAULT_PORT : Number(match[2]);
  if (port < 1 || port > 65_535) throw new DriverError('configuration', `the port of endpointUrl must be 1 to 65535`);
  const securityMode = word(config, 'securityMode', OPCUA_SECURITY_MODES, 'None') as OpcuaSecurityMode;
  const written = valueAt(config, 'securityPolicy') === undefined ? undefined : stringAt(config, 'securityPolicy');
  const securityPolicy = effectiveSecurityPolicy(securityMode, written);
  if (!OPCUA_SECURITY_POLICIES.includes(securityPolicy))
    throw new DriverError(
      'configuration',
      `securityPolicy must be ${OPCUA_SECURITY_POLICIES.join(' or ')}; it is ${JSON.stringify(securityPolicy)}`,
    );
  const mismatch = securityMismatch(securityMode, securityPolicy);
  if (mismatch !== undefined) throw new DriverError('configuration', mismatch);
  return {
    endpointUrl,
    host: (match[1] ?? '').replace(/^\[|\]$/g, ''),
    port,
    path: match[3] ?? '',
    securityMode,
    securityPolicy: securityPolicy as OpcuaSecurityPolicy,
    identity: identity(config),
    serverCertificate: thumbprint(config),
    clientCertificate: clientCertificate(config),
    connectTimeoutMs: numberAt(config, 'connectTimeout', 5000, { min: 100, max: 120_000 }),
    requestTimeoutMs: numberAt(config, 'requestTimeout', 5000, { min: 100, max: 120_000 }),
    publishingIntervalMs: numberAt(config, 'publishingInterval', 1000, { min: 50, max: 3_600_000 }),
    maxNodesPerRead: numberAt(config, 'maxNodesPerRead', 500, { min: 1, max: 100_000, integer: true }),
    nodes: nodes(config),
  };
}

function word(config: Readonly<Record<string, unknown>>, path: string, allowed: readonly string[], fallback: string) {
  const value = stringAt(config, path, fallback);
  if (!allowed.includes(value))
    throw new DriverError('configuration', `${path} must be ${allowed.join(', ')}; it is ${JSON.stringify(value)}`);
  return value;
}

function identity(config: Readonly<Record<string, unknown>>): OpcuaIdentity {
  const type = word(config, 'identity.type', OPCUA_IDENTITY_TYPES, 'anonymous');
  if (type === 'username') {
    const userName = stringAt(config, 'identity.userName', '');
    if (userName === '')
      throw new DriverError('configuration', 'identity.userName is required with identity.type username');
    return { type, userName, password: stringAt(config, 'identity.password', '') };
  }
  if (type === 'certificate') {
    const certificate = stringAt(config, 'identity.certificate', '');
    const privateKey = stringAt(config, 'identity.privateKey', '');
    if (!certificate.includes('-----BEGIN CERTIFICATE-----') || !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey))
      throw new DriverError(
        'configuration',
        'identity.type certificate needs identity.certificate and identity.privateKey, both in PEM',
      );
    return { type, certificate, privateKey };
  }
  return { type: 'anonymous' };
}

function thumbprint(config: Readonly<Record<string, unknown>>): string | undefined {
  const raw = valueAt(config, 'serverCertificate');
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = stringAt(config, 'serverCertificate').replace(/[\s:]/g, '').toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(text))
    throw new DriverError(
      'configuration',
      'serverCertificate must be the SHA-1 thumbprint of the server certificate: 40 hex digits (colons allowed)',
    );
  return text;
}

function clientCertificate(config: Readonly<Record<string, unknown>>): OpcuaSettings['clientCertificate'] {
  const certificate = stringAt(config, 'clientCertificate.certificate', '');
  const privateKey = stringAt(config, 'clientCertificate.privateKey', '');
  if (certificate === '' && privateKey === '') return undefined;
  if (!certificate.includes('-----BEGIN CERTIFICATE-----') || !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey))
    throw new DriverError(
      'configuration',
      'clientCertificate needs certificate and privateKey, both in PEM (or neither: the driver makes its own)',
    );
  return { certificate, privateKey };
}

function nodes(config: Readonly<Record<string, unknown>>): ReadonlyMap<string, OpcuaNodeSettings> {
  const raw = valueAt(config, 'nodes');
  const out = new Map<string, OpcuaNodeSettings>();
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) throw new DriverError('configuration', 'nodes must map names to NodeIds or browse paths');
  for (const [name, entry] of Object.entries(raw)) {
    const where = `nodes.${name}`;
    const settings = isObject(entry) ? entry : { node: entry };
    const text = settings['node'];
    if (typeof text !== 'string')
      throw new DriverError('configuration', `${where} must be a NodeId or browse path, or an object with node`);
    const parsed = parseOpcuaNode(assertFilled(where, text));
    if (!parsed.ok) throw new DriverError('configuration', `${where}: ${parsed.reason}`);
    const deadband = isObject(settings['deadband']) ? settings['deadband'] : {};
    const type = deadband['type'] ?? 'none';
    if (typeof type !== 'string' || !OPCUA_DEADBAND_TYPES.includes(type))
      throw new DriverError(
        'configuration',
        `${where}.deadband.type must be ${OPCUA_DEADBAND_TYPES.join(', ')}; it is ${JSON.stringify(type)}`,
      );
    out.set(name, {
      node: parsed.node,
      samplingInterval:
        settings['samplingInterval'] === undefined
          ? undefined
          : numberAt(settings, 'samplingInterval', 0, { min: 0, max: 3_600_000 }),
      deadband: {
        type: type as OpcuaNodeSettings['deadband']['type'],
        value: numberAt(deadband, 'value', 0, { min: 0, max: type === 'percent' ? 100 : Number.MAX_VALUE }),
      },
    });
  }
  return out;
}
