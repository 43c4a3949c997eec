/**
 * The MQTT driver's configuration (the template's `originTypes` entry with the device's
 * `drivers["svc-ds-drv-mqtt"]` merged over it), read and checked once. See docs/devices.md
 * ("MQTT") for every key.
 */
import { isObject } from '@triad/common';
import { assertFilled, booleanAt, numberAt, stringAt, valueAt } from '../../config-values.js';
import { DriverError } from '../../driver-error.js';
import { OPERATION_MODES, type OperationMode } from './datapoint-reader.js';
import { compileOriginStrategy, type OriginStrategy } from './origin-strategy.js';
import { Re2Pattern } from './re2-pattern.js';
import { topicFilterProblem } from './topic-filter.js';

/** The broker used when neither the device nor the service (`TRIAD_MQTT_URL`) names one. */
export const DEFAULT_BROKER_URL = 'mqtt://127.0.0.1:1883';

/** Exactly the schemes docs/devices.md lists (MQTT.js would also take tcp:, ssl:, +unix and more). */
const PROTOCOLS = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];
const ENCRYPTED = ['mqtts:', 'wss:'];
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'mqtt:': 1883, 'mqtts:': 8883, 'ws:': 80, 'wss:': 443 };

/** Where a broker URL connects: its host (brackets removed) and port. */
export function brokerTarget(brokerUrl: string): { host: string; port: number } {
  const url = new URL(brokerUrl);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port) };
}

/** One `topics[]` entry. */
export interface TopicEntry {
  /** `topics[i]`, for messages. */
  readonly path: string;
  readonly topicName: string;
  /** Set when `topicName` is a regular expression (it starts with `^`). */
  readonly pattern: Re2Pattern | undefined;
  /** The filter subscribed to: `topicName` itself, or `subscribeFilter` for a regular expression. */
  readonly subscribeFilter: string;
  readonly datapointSet: string;
  readonly strategy: OriginStrategy;
  readonly operationMode: OperationMode;
}

/** TLS options, passed to Node's `tls.connect` as they are. PEM text, not file names. */
export interface MqttTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly passphrase?: string;
  readonly servername?: string;
  readonly rejectUnauthorized: boolean;
}

/** What identifies a broker connection; devices with equal settings share one. */
export interface MqttConnectionSettings {
  readonly brokerUrl: string;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly clientId: string | undefined;
  /**
   * False keeps the session on the broker under `clientId` (required then): subscriptions and the
   * QoS 1 and 2 messages published while Triad was away survive a restart. Default true.
   */
  readonly cleanSession: boolean;
  /** MQTT 5 with `cleanSession: false`: how long the broker keeps the session after a disconnection. */
  readonly sessionExpirySeconds: number;
  readonly protocolVersion: 3 | 4 | 5;
  readonly keepaliveSeconds: number;
  readonly reconnectPeriodMs: number;
  readonly connectTimeoutMs: number;
  /** How long to wait before trying again after the broker refused the credentials. */
  readonly authRetryPeriodMs: number;
  readonly tls: MqttTls | undefined;
}

/** The whole configuration: the connection, the QoS of the subscriptions and the topic entries. */
export interface MqttSettings {
  readonly connection: MqttConnectionSettings;
  readonly qos: 0 | 1 | 2;
  readonly topics: readonly TopicEntry[];
}

/** Reads the configuration; throws a `configuration` DriverError naming the first bad key. */
export function mqttSettings(config: Readonly<Record<string, unknown>>, defaultBrokerUrl: string): MqttSettings {
  const brokerUrl = assertFilled('brokerUrl', stringAt(config, 'brokerUrl', defaultBrokerUrl));
  if (brokerUrl.includes('\\'))
    throw new DriverError('configuration', 'brokerUrl must not hold a backslash: write mqtt://host:1883');
  let url: URL;
  try {
    url = new URL(brokerUrl);
  } catch {
    throw new DriverError('configuration', `brokerUrl must be a URL such as mqtt://host:1883; it is not`);
  }
  if (!PROTOCOLS.includes(url.protocol))
    throw new DriverError(
      'configuration',
      `brokerUrl must start with mqtt://, mqtts://, ws:// or wss://; it starts with ${url.protocol}//`,
    );
  if (url.hostname === '') throw new DriverError('configuration', 'brokerUrl must name a host (mqtt://host:1883)');
  if (url.password !== '')
    throw new DriverError('configuration', 'brokerUrl must not hold a password: give it as "password" (kept secret)');
  const username = optional(config, 'username');
  const protocolVersion = numberAt(config, 'protocolVersion', 5, { min: 3, max: 5, integer: true }) as 3 | 4 | 5;
  const connection: MqttConnectionSettings = {
    brokerUrl,
    username: username ?? (url.username === '' ? undefined : decodeURIComponent(url.username)),
    password: optional(config, 'password'),
    clientId: optional(config, 'clientId'),
    cleanSession: booleanAt(config, 'cleanSession', true),
    sessionExpirySeconds: numberAt(config, 'sessionExpiry', 86_400, { min: 1, max: 4_294_967_295, integer: true }),
    protocolVersion,
    keepaliveSeconds: numberAt(config, 'keepalive', 30, { min: 0, max: 65_535, integer: true }),
    reconnectPeriodMs: numberAt(config, 'reconnectPeriod', 2_000, { min: 50, max: 3_600_000 }),
    connectTimeoutMs: numberAt(config, 'connectTimeout', 10_000, { min: 100, max: 600_000 }),
    authRetryPeriodMs: numberAt(config, 'authRetryPeriod', 60_000, { min: 100, max: 86_400_000 }),
    tls: tlsSettings(config, url),
  };
  if (!connection.cleanSession && connection.clientId === undefined)
    throw new DriverError(
      'configuration',
      'cleanSession false keeps the session on the broker under the client id: give clientId a fixed value',
    );
  const qos = numberAt(config, 'qos', 0, { min: 0, max: 2, integer: true }) as 0 | 1 | 2;
  const defaultFilter = stringAt(config, 'subscribeFilter', '#');
  const rawTopics = valueAt(config, 'topics');
  if (!Array.isArray(rawTopics) || rawTopics.length === 0)
    throw new DriverError('configuration', 'topics must list at least one {topicName, datapointSet, originStrategy}');
  const topics = rawTopics.map((raw, index) => topicEntry(raw, `topics[${index}]`, defaultFilter));
  return { connection, qos, topics };
}

function topicEntry(raw: unknown, path: string, defaultFilter: string): TopicEntry {
  if (!isObject(raw)) throw new DriverError('configuration', `${path} must be an object`);
  const topicName = assertFilled(`${path}.topicName`, stringAt(raw, 'topicName', ''));
  if (topicName === '') throw new DriverError('configuration', `${path}.topicName is required`);
  const datapointSet = stringAt(raw, 'datapointSet', '');
  if (datapointSet === '') throw new DriverError('configuration', `${path}.datapointSet is required`);
  const operationMode = stringAt(raw, 'operationMode', 'extract');
  if (!isOperationMode(operationMode))
    throw new DriverError(
      'configuration',
      `${path}.operationMode must be ${OPERATION_MODES.join(' or ')}; it is ${JSON.stringify(operationMode)}`,
    );
  let pattern: Re2Pattern | undefined;
  let subscribeFilter = topicName;
  if (topicName.startsWith('^')) {
    const compiled = Re2Pattern.compile(topicName);
    if (typeof compiled === 'string')
      throw new DriverError('configuration', `${path}.topicName is not a regular expression RE2 runs: ${compiled}`);
    pattern = compiled;
    subscribeFilter = stringAt(raw, 'subscribeFilter', defaultFilter);
  }
  const filterProblem = topicFilterProblem(subscribeFilter);
  if (filterProblem !== undefined)
    throw new DriverError(
      'configuration',
      `${path}.${pattern === undefined ? 'topicName' : 'subscribeFilter'}: ${filterProblem}`,
    );
  return {
    path,
    topicName,
    pattern,
    subscribeFilter,
    datapointSet,
    strategy: compileOriginStrategy(raw['originStrategy'], `${path}.originStrategy`, topicName, pattern),
    operationMode,
  };
}

function isOperationMode(value: string): value is OperationMode {
  return OPERATION_MODES.some((mode) => mode === value);
}

function tlsSettings(config: Readonly<Record<string, unknown>>, url: URL): MqttTls | undefined {
  const raw = valueAt(config, 'tls');
  const encrypted = ENCRYPTED.includes(url.protocol);
  if (raw === undefined || raw === null) return encrypted ? { rejectUnauthorized: true } : undefined;
  if (!encrypted)
    throw new DriverError(
      'configuration',
      `tls is given but brokerUrl starts with ${url.protocol}//, which is not encrypted: use mqtts:// or wss://`,
    );
  if (!isObject(raw))
    throw new DriverError('configuration', 'tls must be an object {ca, cert, key, rejectUnauthorized}');
  const pem = (key: 'ca' | 'cert' | 'key') => {
    const value = optional(config, `tls.${key}`);
    if (value !== undefined && !value.includes('-----BEGIN '))
      throw new DriverError('configuration', `tls.${key} must be PEM text (-----BEGIN ...), not a file name`);
    return value;
  };
  return {
    ca: pem('ca'),
    cert: pem('cert'),
    key: pem('key'),
    passphrase: optional(config, 'tls.passphrase'),
    servername: optional(config, 'tls.servername'),
    rejectUnauthorized: booleanAt(config, 'tls.rejectUnauthorized', true),
  };
}

function optional(config: Readonly<Record<string, unknown>>, path: string): string | undefined {
  const value = valueAt(config, path);
  if (value === undefined || value === null || value === '') return undefined;
  return stringAt(config, path);
}
