/** Opens an MQTT.js client for a connection's settings: the production `MqttConnect`. */
import { randomBytes } from 'node:crypto';
import { connect, type IClientOptions } from 'mqtt';
import type { MqttClientLike } from './mqtt-connection.js';
import type { MqttConnectionSettings } from './mqtt-settings.js';

/** MQTT.js `connect` with the connection's settings; reconnection stays MQTT.js's, subscriptions ours. */
export function connectMqttJs(settings: MqttConnectionSettings): MqttClientLike {
  const options: IClientOptions & { passphrase?: string } = {
    clientId: settings.clientId ?? `triad-${randomBytes(6).toString('hex')}`,
    username: settings.username,
    password: settings.password,
    protocolVersion: settings.protocolVersion,
    keepalive: settings.keepaliveSeconds,
    reconnectPeriod: settings.reconnectPeriodMs,
    connectTimeout: settings.connectTimeoutMs,
    clean: true,
    // The connection subscribes again itself after each reconnection, to know when it is done.
    resubscribe: false,
    reconnectOnConnackError: false,
    queueQoSZero: false,
  };
  if (settings.tls !== undefined) {
    // Only the keys given: an explicit `servername: undefined` would hide MQTT.js's default (the host).
    for (const [key, value] of Object.entries(settings.tls) as [string, unknown][])
      if (value !== undefined) Object.assign(options, { [key]: value });
  }
  return connect(settings.brokerUrl, options);
}
