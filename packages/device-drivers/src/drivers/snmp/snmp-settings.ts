/**
 * The SNMP driver's configuration, read from the template's `originTypes` entry merged with the
 * device's settings: `basicConfig` {address, port, version, retries, timeout}, `snmpCommunities`
 * {readCommunity, writeCommunity} and `snmpV3Security` {usmUser, authAlgorithm, authPassword,
 * privacyAlgorithm, privacyPassword}. See docs/devices.md, section SNMP.
 */
import { createCipheriv } from 'node:crypto';
import snmp from 'net-snmp';
import { hostAt, numberAt, stringAt, valueAt } from '../../config-values.js';
import { DriverError } from '../../driver-error.js';

export type SnmpVersion = '1' | '2c' | '3';
export type SecurityLevelName = 'noAuthNoPriv' | 'authNoPriv' | 'authPriv';

export interface SnmpV3Settings {
  readonly user: string;
  /** `snmpV3Security.contextName`: the SNMPv3 context of every request; default `''`, the default context. */
  readonly contextName: string;
  readonly level: SecurityLevelName;
  /** Names as the template gives them, for messages (`SHA`, `AES`). */
  readonly authAlgorithm: string;
  readonly privacyAlgorithm: string;
  /** The net-snmp user; holds the passwords, so it never goes into a message or a log. */
  readonly netSnmpUser: snmp.User;
}

export interface SnmpSettings {
  readonly address: string;
  readonly port: number;
  /** `basicConfig.transport`: UDP (the default) or TCP (RFC 3430), one connection per session. */
  readonly transport: 'udp' | 'tcp';
  readonly version: SnmpVersion;
  /** Extra attempts after the first one times out. */
  readonly retries: number;
  /** Milliseconds to wait for each attempt. */
  readonly timeoutMs: number;
  readonly community: string;
  readonly v3: SnmpV3Settings | undefined;
  /** Varbinds per GET PDU. */
  readonly maxVarbinds: number;
  /** GETBULK max-repetitions budget, shared by the columns walked together. */
  readonly maxRepetitions: number;
}

/** The keys that hold secrets (encrypted at rest, never shown). */
export const SNMP_SECRET_KEYS = [
  'snmpCommunities.readCommunity',
  'snmpCommunities.writeCommunity',
  'snmpV3Security.authPassword',
  'snmpV3Security.privacyPassword',
] as const;

const AUTH_PROTOCOLS: Readonly<Record<string, snmp.AuthProtocols>> = {
  NONE: snmp.AuthProtocols.none,
  MD5: snmp.AuthProtocols.md5,
  SHA: snmp.AuthProtocols.sha,
  SHA1: snmp.AuthProtocols.sha,
  SHA224: snmp.AuthProtocols.sha224,
  SHA256: snmp.AuthProtocols.sha256,
  SHA384: snmp.AuthProtocols.sha384,
  SHA512: snmp.AuthProtocols.sha512,
};

/** AES-256 is the Blumenthal key extension (Net-SNMP's AES-256); AES-256-C/-R is Reeder's (Cisco's). */
const PRIV_PROTOCOLS: Readonly<Record<string, snmp.PrivProtocols>> = {
  NONE: snmp.PrivProtocols.none,
  DES: snmp.PrivProtocols.des,
  AES: snmp.PrivProtocols.aes,
  AES128: snmp.PrivProtocols.aes,
  AES256: snmp.PrivProtocols.aes256b,
  AES256B: snmp.PrivProtocols.aes256b,
  AES256C: snmp.PrivProtocols.aes256r,
  AES256R: snmp.PrivProtocols.aes256r,
};

const LEVELS: Readonly<Record<string, SecurityLevelName>> = {
  NOAUTHNOPRIV: 'noAuthNoPriv',
  AUTHNOPRIV: 'authNoPriv',
  AUTHPRIV: 'authPriv',
};

export function readSnmpSettings(config: Readonly<Record<string, unknown>>): SnmpSettings {
  const address = hostAt(config, 'basicConfig.address', { trim: true });
  const version = readVersion(config);
  return {
    address,
    port: numberAt(config, 'basicConfig.port', 161, { min: 1, max: 65_535, integer: true }),
    transport: readTransport(config),
    version,
    retries: numberAt(config, 'basicConfig.retries', 1, { min: 0, max: 10, integer: true }),
    timeoutMs: numberAt(config, 'basicConfig.timeout', 5000, { min: 10, max: 120_000, integer: true }),
    community: stringAt(config, 'snmpCommunities.readCommunity', 'public'),
    v3: version === '3' ? readV3(config) : undefined,
    maxVarbinds: numberAt(config, 'basicConfig.maxVarbinds', 32, { min: 1, max: 128, integer: true }),
    maxRepetitions: numberAt(config, 'basicConfig.maxRepetitions', 25, { min: 1, max: 200, integer: true }),
  };
}

function readTransport(config: Readonly<Record<string, unknown>>): 'udp' | 'tcp' {
  const raw = stringAt(config, 'basicConfig.transport', 'udp').trim().toLowerCase();
  if (raw === '' || raw === 'udp') return 'udp';
  if (raw === 'tcp') return 'tcp';
  throw new DriverError('configuration', `basicConfig.transport must be udp or tcp; it is ${JSON.stringify(raw)}`);
}

function readVersion(config: Readonly<Record<string, unknown>>): SnmpVersion {
  const raw = valueAt(config, 'basicConfig.version');
  if (raw === undefined || raw === null || raw === '') return '2c';
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim().toLowerCase() : '';
  const version = text.replace(/^v/, '');
  if (version === '1') return '1';
  if (version === '2' || version === '2c') return '2c';
  if (version === '3') return '3';
  throw new DriverError(
    'configuration',
    `basicConfig.version must be 1, 2 (for v2c) or 3; it is ${JSON.stringify(raw)}`,
  );
}

function readV3(config: Readonly<Record<string, unknown>>): SnmpV3Settings {
  const user = stringAt(config, 'snmpV3Security.usmUser', '');
  if (user === '') throw new DriverError('configuration', 'snmpV3Security.usmUser is required for SNMP version 3');
  const authPassword = stringAt(config, 'snmpV3Security.authPassword', '');
  const privPassword = stringAt(config, 'snmpV3Security.privacyPassword', '');
  const authName = stringAt(config, 'snmpV3Security.authAlgorithm', 'SHA');
  const privName = stringAt(config, 'snmpV3Security.privacyAlgorithm', 'AES');
  const authProtocol = AUTH_PROTOCOLS[algorithmKey(authName)];
  if (authProtocol === undefined)
    throw new DriverError(
      'configuration',
      `snmpV3Security.authAlgorithm must be one of MD5, SHA, SHA-224, SHA-256, SHA-384, SHA-512 or NONE; ` +
        `it is ${JSON.stringify(authName)}`,
    );
  const privProtocol = PRIV_PROTOCOLS[algorithmKey(privName)];
  if (privProtocol === undefined)
    throw new DriverError(
      'configuration',
      `snmpV3Security.privacyAlgorithm must be one of DES, AES, AES-256, AES-256-C or NONE; ` +
        `it is ${JSON.stringify(privName)}`,
    );
  const level = readLevel(config, authPassword, privPassword, authProtocol, privProtocol);
  if (level !== 'noAuthNoPriv') {
    if (authProtocol === snmp.AuthProtocols.none)
      throw new DriverError('configuration', `security level ${level} needs an snmpV3Security.authAlgorithm`);
    if (authPassword.length < 8)
      throw new DriverError(
        'configuration',
        `snmpV3Security.authPassword must have at least 8 characters for ${level} (RFC 3414)`,
      );
  }
  if (level === 'authPriv') {
    if (privProtocol === snmp.PrivProtocols.none)
      throw new DriverError('configuration', 'security level authPriv needs an snmpV3Security.privacyAlgorithm');
    if (privPassword.length < 8)
      throw new DriverError(
        'configuration',
        'snmpV3Security.privacyPassword must have at least 8 characters for authPriv (RFC 3414)',
      );
  }
  if (level === 'authPriv' && privProtocol === snmp.PrivProtocols.des && !desAvailable())
    throw new DriverError(
      'configuration',
      'snmpV3Security.privacyAlgorithm DES is not available here: OpenSSL 3 keeps DES in its legacy provider; ' +
        'configure the agent for AES, or run Node.js with --openssl-legacy-provider',
    );
  const netSnmpUser: snmp.User = { name: user, level: snmp.SecurityLevel[level] };
  if (level !== 'noAuthNoPriv') Object.assign(netSnmpUser, { authProtocol, authKey: authPassword });
  if (level === 'authPriv') Object.assign(netSnmpUser, { privProtocol, privKey: privPassword });
  const contextName = stringAt(config, 'snmpV3Security.contextName', '');
  if (contextName.length > 32)
    throw new DriverError(
      'configuration',
      `snmpV3Security.contextName has at most 32 characters (RFC 3411 SnmpAdminString); it has ${contextName.length}`,
    );
  return { user, contextName, level, authAlgorithm: authName, privacyAlgorithm: privName, netSnmpUser };
}

/**
 * `snmpV3Security.securityLevel` when given; otherwise what the passwords allow: none →
 * noAuthNoPriv, an authentication password → authNoPriv, both → authPriv.
 */
function readLevel(
  config: Readonly<Record<string, unknown>>,
  authPassword: string,
  privPassword: string,
  authProtocol: snmp.AuthProtocols,
  privProtocol: snmp.PrivProtocols,
): SecurityLevelName {
  const explicit = stringAt(config, 'snmpV3Security.securityLevel', '');
  if (explicit !== '') {
    const level = LEVELS[explicit.replace(/[^A-Za-z]/g, '').toUpperCase()];
    if (level === undefined)
      throw new DriverError(
        'configuration',
        `snmpV3Security.securityLevel must be noAuthNoPriv, authNoPriv or authPriv; it is ${JSON.stringify(explicit)}`,
      );
    return level;
  }
  if (authPassword === '' || authProtocol === snmp.AuthProtocols.none) return 'noAuthNoPriv';
  if (privPassword === '' || privProtocol === snmp.PrivProtocols.none) return 'authNoPriv';
  return 'authPriv';
}

let des: boolean | undefined;

/** Whether this Node.js (its OpenSSL) can run DES-CBC, which SNMPv3's DES privacy needs. */
function desAvailable(): boolean {
  if (des === undefined)
    try {
      createCipheriv('des-cbc', Buffer.alloc(8), Buffer.alloc(8));
      des = true;
    } catch {
      des = false;
    }
  return des;
}

/** `SHA-256`, `sha_256` and `SHA256` name the same algorithm. */
function algorithmKey(name: string): string {
  const key = name.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return key === '' ? 'NONE' : key;
}
