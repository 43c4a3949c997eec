/**
 * Opens an MQTT.js client for a connection's settings: the production `MqttConnect`. Every
 * (re)connection resolves the broker's host name through the address guard, which checks each
 * address before the socket connects to it; TLS keeps the host name as the server name.
 */
import { randomBytes } from 'node:crypto';
import { connect as netConnect, isIP, Socket, type Socket as NetSocket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { connect, MqttClient, type IClientOptions } from 'mqtt';
import { AddressGuard, refusedError } from '../../address-guard.js';
import type { MqttClientLike } from './mqtt-connection.js';
import { brokerTarget, type MqttConnectionSettings } from './mqtt-settings.js';

/** MQTT.js with the connection's settings; reconnection stays MQTT.js's, subscriptions ours. */
export function connectMqttJs(
  settings: MqttConnectionSettings,
  guard: AddressGuard = new AddressGuard(),
): MqttClientLike {
  const { host, port } = brokerTarget(settings.brokerUrl);
  const lookup = guard.lookup(port);
  const options: IClientOptions = {
    clientId: settings.clientId ?? `triad-${randomBytes(6).toString('hex')}`,
    username: settings.username,
    password: settings.password,
    protocolVersion: settings.protocolVersion,
    keepalive: settings.keepaliveSeconds,
    reconnectPeriod: settings.reconnectPeriodMs,
    connectTimeout: settings.connectTimeoutMs,
    clean: settings.cleanSession,
    // MQTT 5 ends a session at disconnection unless it has an expiry interval.
    ...(!settings.cleanSession && settings.protocolVersion === 5
      ? { properties: { sessionExpiryInterval: settings.sessionExpirySeconds } }
      : {}),
    // The connection subscribes again itself after each reconnection, to know when it is done.
    resubscribe: false,
    reconnectOnConnackError: false,
    queueQoSZero: false,
  };
  const url = new URL(settings.brokerUrl);
  const scheme = url.protocol;
  if (scheme === 'ws:' || scheme === 'wss:') {
    // ws hands `wsOptions` to http.request, which resolves through `lookup`; MQTT.js adds the TLS keys.
    const tls = Object.fromEntries(Object.entries(settings.tls ?? {}).filter(([, value]) => value !== undefined));
    // The parts as the address policy read them (WHATWG URL), never MQTT.js's own parse of the
    // text, which may see another host in a URL written to confuse one of the two parsers.
    return connect({
      ...options,
      ...tls,
      protocol: scheme === 'ws:' ? 'ws' : 'wss',
      hostname: url.hostname,
      port,
      path: `${url.pathname}${url.search}`,
      wsOptions: { lookup },
    });
  }
  // TCP and TLS streams of our own: MQTT.js's pass no `lookup` (TCP) or go through a SOCKS proxy
  // from MQTTJS_SOCKS_PROXY (both), which would resolve the name past the address policy.
  const tls = settings.tls;
  return new MqttClient(() => {
    // Node skips `lookup` for an address: the guard checks that one here, at every connection.
    const refusal = guard.policy.checkHost(host, port);
    if (refusal !== undefined) return refusedSocket(refusal);
    if (scheme === 'mqtt:' || tls === undefined) return netConnect({ host, port, lookup });
    const secure: ConnectionOptions = { host, port, lookup, rejectUnauthorized: tls.rejectUnauthorized };
    for (const key of ['ca', 'cert', 'key', 'passphrase'] as const) if (tls[key] !== undefined) secure[key] = tls[key];
    const servername = tls.servername ?? (isIP(host) === 0 ? host : undefined);
    if (servername !== undefined) secure.servername = servername;
    return tlsConnect(secure);
  }, options);
}

/** A socket that fails with the refusal before connecting anywhere. */
function refusedSocket(refusal: Parameters<typeof refusedError>[0]): NetSocket {
  const socket = new Socket();
  process.nextTick(() => socket.destroy(refusedError(refusal)));
  return socket;
}
