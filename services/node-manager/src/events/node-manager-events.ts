/** An alarm change pushed to live-update clients; `alarm` is the exact JSON of the alarm lists. */
export interface AlarmEvent {
  readonly type: 'alarm';
  readonly action: 'raised' | 'updated' | 'acknowledged' | 'unacknowledged' | 'cleared' | 'commented';
  readonly alarm: unknown;
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

/** In-process fan-out of changes to live-update subscribers. Listeners must not throw. */
export class NodeManagerEvents {
  readonly #listeners = new Set<(event: NodeManagerEvent) => void>();

  /** Adds a listener; returns its removal. */
  subscribe(listener: (event: NodeManagerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: NodeManagerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break the change that caused the event.
      }
    }
  }

  get subscriberCount(): number {
    return this.#listeners.size;
  }
}
