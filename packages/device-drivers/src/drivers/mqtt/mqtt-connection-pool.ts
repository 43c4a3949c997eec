/**
 * Broker connections shared between devices: one per distinct connection settings (broker URL,
 * credentials, TLS, client options), opened with the first device and closed with the last.
 * Ten thousand devices on one broker are one TCP connection and one subscription per topic
 * filter, not ten thousand.
 */
import type { AddressGuard } from '../../address-guard.js';
import { connectMqttJs } from './connect-mqtt-js.js';
import { MqttConnection, type ConnectionUser, type MqttConnect } from './mqtt-connection.js';
import type { MqttConnectionSettings } from './mqtt-settings.js';

/** A device's hold on a shared connection. */
export interface PooledSubscription {
  /** Resolves once the device's filters are subscribed; rejects on refused credentials. */
  readonly ready: Promise<void>;
  /** Leaves the connection (closing it when no device is left). */
  close(): Promise<void>;
}

/** Shared broker connections by connection settings; `subscribe` adds a device to one. */
export class MqttConnectionPool {
  readonly #connect: MqttConnect;
  readonly #connections = new Map<string, MqttConnection>();

  constructor(connect: MqttConnect = connectMqttJs) {
    this.#connect = connect;
  }

  /** How many broker connections are open (for tests and diagnostics). */
  get size(): number {
    return this.#connections.size;
  }

  subscribe(
    settings: MqttConnectionSettings,
    user: ConnectionUser,
    log?: (message: string) => void,
    guard?: AddressGuard,
  ): PooledSubscription {
    // The key holds the password; it never leaves this map.
    const key = JSON.stringify(settings);
    let connection = this.#connections.get(key);
    if (connection === undefined) {
      connection = new MqttConnection(settings, this.#connect, log, guard);
      this.#connections.set(key, connection);
    }
    const shared = connection;
    const ready = shared.attach(user);
    let closed = false;
    return {
      ready,
      close: async () => {
        if (closed) return;
        closed = true;
        shared.detach(user);
        if (shared.users > 0) return;
        if (this.#connections.get(key) === shared) this.#connections.delete(key);
        await shared.end();
      },
    };
  }
}
