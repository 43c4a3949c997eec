import { CHANGE_BUS_MAX_PAYLOAD_BYTES, type ChangeBus, type Unsubscribe } from '@triad/db';
import type { Authenticator } from '../auth/authenticator.js';
import type { ThrottleOutcome } from '../auth/login-throttle.js';
import type { AlarmEvent, NodeManagerEvent, NodeManagerEvents } from '../events/node-manager-events.js';
import type { UserChangeListener } from '../commands/user-commands.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import type { PluginRepository } from '../repositories/plugin-repository.js';

/** An event as another instance receives it: whole, or an alarm by its key when too large to send. */
type EventMessage =
  | { readonly o: string; readonly e: NodeManagerEvent }
  | { readonly o: string; readonly ref: { readonly action: AlarmEvent['action']; readonly eventUs: number } };

/** Options of `ChangeRelay.start`. */
export interface ChangeRelayOptions {
  readonly bus: ChangeBus;
  readonly instanceId: string;
  readonly events: NodeManagerEvents;
  readonly plugins: PluginRepository;
  readonly alarms: AlarmRepository;
  /** Whose sign-in throttle counts the other instances' failed sign-ins too (absent: not shared). */
  readonly authenticator?: Authenticator;
  /**
   * Whose user changes are told to the other instances, and who hears theirs (absent: not
   * shared): a changed or deleted user loses their passes and live sockets on every instance.
   */
  readonly users?: {
    onChange(listener: UserChangeListener): () => void;
    changedElsewhere(username: string): void;
  };
  /** Another instance added or deleted a node (run a lease cycle now). */
  readonly onNodesChanged: () => void;
  /** Failures of a publish or of reading an alarm sent by key (for logs). */
  readonly onError?: (error: unknown, what: string) => void;
}

/** The bus topics; the bus keeps each schema's channels apart, so other installations hear nothing. */
const NODE_MANAGER_TOPICS = {
  events: 'nm.events',
  plugins: 'nm.plugins',
  nodes: 'nm.nodes',
  signIns: 'nm.sign-ins',
  users: 'nm.users',
} as const;

/**
 * Shares the node manager's changes between the instances of one PostgreSQL database through the
 * change bus (docs/decisions/0027): every `local` event (alarm, node state, log entry) and plugin
 * change goes out, and the other instances' come in as `remote`. The bus keeps each schema's
 * channels apart, so installations in other schemas hear nothing. Messages stay under the
 * bus's limit: an alarm too large goes as its key (receivers read its stored list form), a log
 * entry too large is cut. Sends keep their order. Events sent while the listening connection was
 * lost are missed (live clients reread the lists); nodes are re-shared and the cached alarm lists
 * dropped on reconnect. Every alarm change of another instance drops the cached alarm lists.
 */
export class ChangeRelay {
  readonly #options: ChangeRelayOptions;
  readonly #topics = NODE_MANAGER_TOPICS;
  readonly #stops: (() => void | Promise<void>)[] = [];
  #sending: Promise<void> = Promise.resolve();

  private constructor(options: ChangeRelayOptions) {
    this.#options = options;
  }

  /** Subscribes to the other instances' changes and starts sending this one's. */
  static async start(options: ChangeRelayOptions): Promise<ChangeRelay> {
    const relay = new ChangeRelay(options);
    await relay.#subscribe();
    return relay;
  }

  /** Tells the other instances that the node set changed (added here), so they re-share now. */
  announceNodes(): void {
    this.#send(this.#topics.nodes, JSON.stringify({ o: this.#options.instanceId }));
  }

  /** Stops sending and receiving; resolves once pending sends are done. */
  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) await stop();
    await this.#sending;
  }

  async #subscribe(): Promise<void> {
    const { bus, instanceId, events, plugins, onNodesChanged } = this.#options;
    const fromOthers = (handle: (message: Record<string, unknown>) => void) => (payload: string) => {
      const message = JSON.parse(payload) as Record<string, unknown>;
      if (message['o'] !== instanceId) handle(message);
    };
    const unsubscribes: Unsubscribe[] = [
      await bus.subscribe(
        this.#topics.events,
        fromOthers((message) => this.#receive(message as EventMessage)),
        // Messages were lost while the connection was: lists cached meanwhile may be stale.
        () => this.#options.alarms.forgetCachedReads(),
      ),
      await bus.subscribe(
        this.#topics.plugins,
        fromOthers((message) => plugins.changedElsewhere(String(message['n']))),
      ),
      await bus.subscribe(
        this.#topics.nodes,
        fromOthers(() => onNodesChanged()),
        onNodesChanged,
      ),
    ];
    const { authenticator } = this.#options;
    if (authenticator) {
      unsubscribes.push(
        await bus.subscribe(
          this.#topics.signIns,
          fromOthers((message) => {
            const { k, u, a } = message;
            if ((k === 'failed' || k === 'cleared') && typeof u === 'string' && typeof a === 'string')
              authenticator.applyRemoteThrottle({ kind: k, username: u, address: a });
          }),
        ),
      );
      this.#stops.push(
        authenticator.shareThrottle((outcome: ThrottleOutcome) =>
          this.#send(
            this.#topics.signIns,
            JSON.stringify({ o: instanceId, k: outcome.kind, u: outcome.username, a: outcome.address }),
          ),
        ),
      );
    }
    const { users } = this.#options;
    if (users) {
      unsubscribes.push(
        await bus.subscribe(
          this.#topics.users,
          fromOthers((message) => {
            if (typeof message['u'] === 'string') users.changedElsewhere(message['u']);
          }),
        ),
      );
      this.#stops.push(
        users.onChange((username, origin) => {
          if (origin === 'local') this.#send(this.#topics.users, JSON.stringify({ o: instanceId, u: username }));
        }),
      );
    }
    this.#stops.push(...unsubscribes);
    this.#stops.push(
      events.subscribe((event, origin) => {
        if (origin !== 'local') return;
        this.#send(this.#topics.events, eventPayload(instanceId, event));
        if (event.type === 'node_state' && event.deleted) this.announceNodes();
      }),
      plugins.onChange((nodeId, origin) => {
        if (origin === 'local') this.#send(this.#topics.plugins, JSON.stringify({ o: instanceId, n: nodeId }));
      }),
    );
  }

  #send(topic: string, payload: string): void {
    this.#sending = this.#sending
      .then(() => this.#options.bus.publish(topic, payload))
      .catch((error: unknown) => this.#options.onError?.(error, 'change bus publish'));
  }

  #receive(message: EventMessage): void {
    const { events, alarms, onError } = this.#options;
    // Another instance changed an alarm: this one's cached lists no longer hold.
    if (!('e' in message) || message.e.type === 'alarm') alarms.forgetCachedReads();
    if ('e' in message) {
      events.deliver(message.e, 'remote');
      return;
    }
    const { action, eventUs } = message.ref;
    alarms
      .findPresented(eventUs)
      .then((found) => {
        if (found) events.deliver({ type: 'alarm', action, alarm: found.alarm, eventUs, tags: found.tags }, 'remote');
      })
      .catch((error: unknown) => onError?.(error, 'change bus alarm read'));
  }
}

/** Room left under the bus's limit for the message around the event. */
const PAYLOAD_LIMIT = CHANGE_BUS_MAX_PAYLOAD_BYTES - 100;

/** The bus payload of an event, shrunk under the bus's limit when needed. */
export function eventPayload(origin: string, event: NodeManagerEvent): string {
  const whole = JSON.stringify({ o: origin, e: event });
  const size = Buffer.byteLength(whole);
  if (size <= PAYLOAD_LIMIT) return whole;
  switch (event.type) {
    case 'alarm':
      return JSON.stringify({ o: origin, ref: { action: event.action, eventUs: event.eventUs } });
    case 'log': {
      // Each character cut is at least one byte; the ellipsis takes three.
      const keep = Math.max(0, event.log.text.length - (size - PAYLOAD_LIMIT) - 3);
      const log = { ...event.log, text: `${event.log.text.slice(0, keep)}…` };
      return JSON.stringify({ o: origin, e: { ...event, log } });
    }
    case 'node_state':
      return whole;
  }
}
