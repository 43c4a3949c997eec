/** An alarm change pushed to live-update clients; `alarm` is the exact JSON of the alarm lists. */
export interface AlarmEvent {
  readonly type: 'alarm';
  readonly action: 'raised' | 'updated' | 'acknowledged' | 'unacknowledged' | 'cleared' | 'commented';
  readonly alarm: unknown;
  /** The alarm's key (`nm_alarms.event_us`), so another instance can read it when it is too large to send. */
  readonly eventUs: number;
  /** Tags of the alarm, so a subscriber can apply its user's tag filter. */
  readonly tags: readonly string[];
}

/** A node's state changed (or it was added or deleted). */
export interface NodeStateEvent {
  readonly type: 'node_state';
  readonly nodeId: string;
  readonly nodeName: string;
  readonly state: string;
  readonly deleted: boolean;
}

/** A log entry collected from a node (`presentNodeLog`'s shape in `log`). */
export interface NodeLogEvent {
  readonly type: 'log';
  readonly nodeId: string;
  readonly nodeName: string;
  readonly log: { readonly time: number; readonly level: string; readonly kind: string; readonly text: string };
  /** Tags of the entry (`NODE_LOG_TAGS`), so a subscriber can apply its user's tag filter as for alarms. */
  readonly tags: readonly string[];
}

export type NodeManagerEvent = AlarmEvent | NodeStateEvent | NodeLogEvent;

/**
 * Where an event comes from: `local` when this instance made the change, `remote` when another
 * instance on the same database did and the change bus brought it here (docs/decisions/0027).
 */
export type EventOrigin = 'local' | 'remote';

/** A subscriber of `NodeManagerEvents`. */
export type NodeManagerEventListener = (event: NodeManagerEvent, origin: EventOrigin) => void;

/**
 * In-process fan-out of changes to live-update subscribers. Listeners must not throw. With
 * several instances, the change bus publishes the `local` events and `deliver`s the others'.
 */
export class NodeManagerEvents {
  readonly #listeners = new Set<NodeManagerEventListener>();

  /** Adds a listener; returns its removal. */
  subscribe(listener: NodeManagerEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Publishes a change made by this instance. */
  emit(event: NodeManagerEvent): void {
    this.deliver(event, 'local');
  }

  /** Hands an event to every listener, saying where it comes from. */
  deliver(event: NodeManagerEvent, origin: EventOrigin): void {
    for (const listener of this.#listeners) {
      try {
        listener(event, origin);
      } catch {
        // A broken subscriber must not break the change that caused the event.
      }
    }
  }

  get subscriberCount(): number {
    return this.#listeners.size;
  }
}
