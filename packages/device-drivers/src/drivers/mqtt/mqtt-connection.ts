import { errorMessage } from '@triad/common';
/**
 * One connection to a broker, shared by every device with the same connection settings. It
 * subscribes each topic filter once however many devices need it, decodes each message once,
 * and hands it to the devices it belongs to through routes: one route per distinct topic entry
 * (topic name and origin strategy), which finds the message's origin once and looks the devices
 * up by it. So a message costs one origin lookup per route, not one per device.
 *
 * MQTT.js reconnects on its own every `reconnectPeriod`; after every (re)connection this class
 * subscribes again and reports each device up once its filters are granted. Lost connections and
 * refused credentials are reported to every device as a `DriverError`.
 */
import { AddressGuard } from '../../address-guard.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import { MqttMessage, type PublishProperties } from './mqtt-message.js';
import type { MqttConnectionSettings } from './mqtt-settings.js';
import { redactUrl } from './redact-url.js';
import { MessageRoute, type RouteBinding } from './message-route.js';

/** The part of an MQTT.js client this class calls (CONTRIBUTING rule 3). */
export interface MqttClientLike {
  on(event: 'connect' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error & { code?: unknown }) => void): unknown;
  on(
    event: 'message',
    listener: (
      topic: string,
      payload: Buffer,
      packet: { qos: number; retain: boolean; properties?: PublishProperties },
    ) => void,
  ): unknown;
  subscribe(
    topic: string,
    options: { qos: 0 | 1 | 2 },
    callback: (error: (Error & { code?: unknown }) | null, granted?: readonly { qos: number }[]) => void,
  ): unknown;
  unsubscribe(topic: string, callback: (error?: Error) => void): unknown;
  reconnect(): unknown;
  end(force: boolean, callback: () => void): unknown;
}

/** Opens a client; `connect` of MQTT.js in production. */
export type MqttConnect = (settings: MqttConnectionSettings, guard: AddressGuard) => MqttClientLike;

/** One device's use of the connection. */
export interface ConnectionUser {
  readonly bindings: readonly RouteBinding[];
  readonly qos: 0 | 1 | 2;
  /** Up (`null`) once every filter is granted, or why not. Called on changes only. */
  connection(error: DriverError | null): void;
}

interface UserState {
  readonly filters: readonly string[];
  /** The last report: 'up', or the error code. */
  reported: string | undefined;
  settle: { resolve: () => void; reject: (error: DriverError) => void } | undefined;
}

/** Reason codes of a refused subscription that mean "not allowed" (MQTT 3 failure, MQTT 5 0x87). */
const NOT_AUTHORIZED = new Set([128, 135]);
/** CONNACK codes that mean bad credentials: MQTT 3.1.1 4 and 5, MQTT 5 0x86, 0x87, 0x8C. */
const BAD_CREDENTIALS = new Set([4, 5, 134, 135, 140]);

/** One broker connection and the devices on it (see the top of this file). */
export class MqttConnection {
  readonly #settings: MqttConnectionSettings;
  readonly #connect: MqttConnect;
  readonly #log: ((message: string) => void) | undefined;
  readonly #users = new Map<ConnectionUser, UserState>();
  readonly #routes = new Map<string, MessageRoute>();
  // Routes of a plain topic name (no wildcard, no expression), by that name: a device per topic
  // (`plant//{SENSOR}//data`) costs a map lookup per message, not one comparison per device.
  readonly #exactRoutes = new Map<string, Set<MessageRoute>>();
  /** The other routes, tried on every message. */
  readonly #matchingRoutes = new Set<MessageRoute>();
  /** Subscribed filters: how many devices need each, and its QoS. */
  readonly #filters = new Map<string, { count: number; qos: 0 | 1 | 2 }>();
  /** Filters granted, or refused, since the last (re)connection. */
  readonly #granted = new Set<string>();
  readonly #refused = new Map<string, DriverError>();
  #client: MqttClientLike | undefined;
  #connected = false;
  #ended = false;
  /** Why the current attempt failed, as far as known. */
  #attemptError: DriverError | undefined;
  /** Why the connection is down (undefined while up or before the first attempt ended). */
  #downError: DriverError | undefined;
  #authRetry: NodeJS.Timeout | undefined;

  readonly #guard: AddressGuard;

  /** `guard` checks the broker's addresses at every connection (`connect` hands it to the sockets). */
  constructor(
    settings: MqttConnectionSettings,
    connect: MqttConnect,
    log?: (message: string) => void,
    guard: AddressGuard = new AddressGuard(),
  ) {
    this.#settings = settings;
    this.#connect = connect;
    this.#log = log;
    this.#guard = guard;
  }

  /** How many devices use the connection. */
  get users(): number {
    return this.#users.size;
  }

  /**
   * Adds a device: its routes, and its filters (subscribed now when connected). Resolves once
   * its filters are granted; rejects when the broker refuses the credentials or a filter.
   * Transient failures (broker down) do not settle it: they are reported and retried.
   */
  attach(user: ConnectionUser): Promise<void> {
    const filters = [...new Set(user.bindings.map((binding) => binding.entry.subscribeFilter))];
    const ready = new Promise<void>((resolve, reject) => {
      this.#users.set(user, { filters, reported: undefined, settle: { resolve, reject } });
    });
    for (const binding of user.bindings) {
      const key = MessageRoute.keyOf(binding.entry);
      let route = this.#routes.get(key);
      if (route === undefined) {
        route = new MessageRoute(binding.entry);
        this.#routes.set(key, route);
        const exact = MessageRoute.exactTopicOf(binding.entry);
        if (exact === undefined) this.#matchingRoutes.add(route);
        else this.#exactRoutes.set(exact, (this.#exactRoutes.get(exact) ?? new Set()).add(route));
      }
      route.add(binding);
    }
    for (const filter of filters) {
      const known = this.#filters.get(filter);
      if (known !== undefined) known.count++;
      else {
        this.#filters.set(filter, { count: 1, qos: user.qos });
        if (this.#connected) this.#subscribe(filter);
      }
    }
    if (this.#client === undefined) this.#client = this.#open();
    else this.#report(user);
    return ready;
  }

  /** Removes a device; unsubscribes the filters no other device needs. */
  detach(user: ConnectionUser): void {
    const state = this.#users.get(user);
    if (state === undefined) return;
    this.#users.delete(user);
    state.settle?.resolve();
    for (const binding of user.bindings) {
      const key = MessageRoute.keyOf(binding.entry);
      const route = this.#routes.get(key);
      if (route === undefined) continue;
      route.remove(binding);
      if (!route.empty) continue;
      this.#routes.delete(key);
      this.#matchingRoutes.delete(route);
      const exact = MessageRoute.exactTopicOf(binding.entry);
      const routes = exact === undefined ? undefined : this.#exactRoutes.get(exact);
      routes?.delete(route);
      if (exact !== undefined && routes?.size === 0) this.#exactRoutes.delete(exact);
    }
    for (const filter of state.filters) {
      const known = this.#filters.get(filter);
      if (known === undefined || --known.count > 0) continue;
      this.#filters.delete(filter);
      this.#granted.delete(filter);
      this.#refused.delete(filter);
      if (this.#connected) this.#client?.unsubscribe(filter, () => undefined);
    }
  }

  /** Disconnects for good. */
  end(): Promise<void> {
    this.#ended = true;
    clearTimeout(this.#authRetry);
    for (const state of this.#users.values()) state.settle?.resolve();
    const client = this.#client;
    if (client === undefined) return Promise.resolve();
    return new Promise((resolve) => client.end(true, resolve));
  }

  #open(): MqttClientLike {
    const client = this.#connect(this.#settings, this.#guard);
    client.on('connect', () => this.#onConnect());
    client.on('close', () => this.#onClose());
    client.on('error', (error) => this.#onError(error));
    client.on('message', (topic, payload, packet) => {
      const message = new MqttMessage(topic, payload, {
        receivedAt: Date.now(),
        qos: packet.qos,
        retain: packet.retain,
        properties: packet.properties,
      });
      const exact = this.#exactRoutes.get(topic);
      if (exact !== undefined) for (const route of exact) this.#deliver(route, message);
      for (const route of this.#matchingRoutes) this.#deliver(route, message);
    });
    return client;
  }

  #deliver(route: MessageRoute, message: MqttMessage): void {
    try {
      route.deliver(message);
    } catch (error) {
      this.#log?.(`MQTT: a message on ${message.topic} could not be read: ${errorMessage(error)}`);
    }
  }

  #onConnect(): void {
    if (this.#ended) return;
    this.#connected = true;
    this.#attemptError = undefined;
    this.#downError = undefined;
    this.#granted.clear();
    this.#refused.clear();
    for (const filter of this.#filters.keys()) this.#subscribe(filter);
    this.#reportAll();
  }

  #onClose(): void {
    const wasConnected = this.#connected;
    this.#connected = false;
    this.#granted.clear();
    if (this.#ended) return;
    const where = `the MQTT broker at ${redactUrl(this.#settings.brokerUrl)}`;
    this.#downError =
      this.#attemptError ??
      (wasConnected
        ? new DriverError('unreachable', `lost the connection to ${where}`)
        : new DriverError('timeout', `no answer from ${where} within ${this.#settings.connectTimeoutMs} ms`));
    this.#attemptError = undefined;
    this.#reportAll();
  }

  #onError(error: Error & { code?: unknown }): void {
    if (this.#ended) return;
    const where = `the MQTT broker at ${redactUrl(this.#settings.brokerUrl)}`;
    const code = typeof error.code === 'number' ? error.code : undefined;
    if (code !== undefined && BAD_CREDENTIALS.has(code)) {
      const user = this.#settings.username;
      const whose = user === undefined ? ' (none were given)' : ` of user ${JSON.stringify(user)}`;
      this.#attemptError = new DriverError(
        'authentication',
        `${where} refused the credentials${whose}: ${error.message}`,
      );
      // MQTT.js does not retry after a refused CONNACK; try again later, slowly.
      clearTimeout(this.#authRetry);
      this.#authRetry = setTimeout(() => {
        if (!this.#ended && !this.#connected) this.#client?.reconnect();
      }, this.#settings.authRetryPeriodMs);
      this.#authRetry.unref();
    } else if (code !== undefined) this.#attemptError = new DriverError('protocol', `${where}: ${error.message}`);
    else if (error.code === 'ECONNRESET' || error.code === 'EPIPE')
      this.#attemptError = new DriverError('unreachable', `lost the connection to ${where}: ${error.message}`);
    else this.#attemptError = toDriverError(error, where);
    if (!this.#connected) {
      this.#downError = this.#attemptError;
      this.#reportAll();
    }
  }

  #subscribe(filter: string): void {
    const qos = this.#filters.get(filter)?.qos ?? 0;
    this.#client?.subscribe(filter, { qos }, (error, granted) => {
      if (!this.#connected || !this.#filters.has(filter)) return;
      const code = typeof error?.code === 'number' ? error.code : granted?.[0]?.qos;
      if (error !== null || (code !== undefined && code >= 128)) {
        const why = error?.message ?? `reason code ${code}`;
        this.#refused.set(
          filter,
          code !== undefined && NOT_AUTHORIZED.has(code)
            ? new DriverError('authentication', `the MQTT broker does not allow subscribing to ${filter}: ${why}`)
            : new DriverError('protocol', `the MQTT broker refused the subscription to ${filter}: ${why}`),
        );
      } else this.#granted.add(filter);
      this.#reportAll();
    });
  }

  #reportAll(): void {
    for (const user of this.#users.keys()) this.#report(user);
  }

  /** Tells a device its state when it changed: up once all its filters are granted. */
  #report(user: ConnectionUser): void {
    const state = this.#users.get(user);
    if (state === undefined) return;
    let error: DriverError | null;
    if (!this.#connected) {
      if (this.#downError === undefined) return;
      error = this.#downError;
    } else {
      const refused = state.filters.map((filter) => this.#refused.get(filter)).find((e) => e !== undefined);
      if (refused !== undefined) error = refused;
      else if (state.filters.every((filter) => this.#granted.has(filter))) error = null;
      else return;
    }
    const key = error === null ? 'up' : error.code;
    if (key !== state.reported) {
      state.reported = key;
      user.connection(error);
    }
    if (error === null) state.settle?.resolve();
    else if (error.code === 'authentication') state.settle?.reject(error);
    else return;
    state.settle = undefined;
  }
}
