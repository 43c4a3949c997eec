import type { NodeState, NodeTarget } from './node-connector.js';
import { ConnectionFailure, RpcTimeoutError, stateForFailure } from './connection-failure.js';
import { NodeConnection } from './node-connection.js';

/** Timing of one managed node. All in milliseconds. */
export interface ManagedNodeTiming {
  /** Budget of one connect attempt (resolve + EPMD + TCP + handshake). */
  readonly connectTimeoutMs: number;
  /** First retry delay after a failed attempt; doubles up to `maxBackoffMs`. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Pause between the reply to a health call and the next one. */
  readonly healthIntervalMs: number;
  /** A health call without reply in this time means the node is frozen or cut off. */
  readonly healthTimeoutMs: number;
  readonly tickIntervalMs: number;
}

/** Defaults: frozen node seen within healthIntervalMs + healthTimeoutMs = 3 s (rule in `ManagedNode`). */
export const MANAGED_NODE_DEFAULTS: ManagedNodeTiming = Object.freeze({
  connectTimeoutMs: 3_000, // 3 s
  initialBackoffMs: 200, // 0.2 s
  maxBackoffMs: 10_000, // 10 s
  healthIntervalMs: 1_000, // 1 s
  healthTimeoutMs: 2_000, // 2 s
  tickIntervalMs: 15_000, // 15 s
});

/** Receives every state change of a managed node, with the failure behind a DOWN/STOPPED. */
export type ManagedNodeListener = (state: NodeState, failure: ConnectionFailure | undefined) => void;

/**
 * Keeps one node connected for as long as it is managed, and knows its state.
 *
 * Rules:
 * - UP while a handshaken connection is open. A failed attempt of a node never seen UP gives
 *   STOPPED when EPMD answers but the node is not registered, DOWN otherwise (wrong cookie
 *   included; `failure.kind` says why).
 * - A node seen UP (here, or before a restart: `target.wasUp`) and lost is DOWN whatever the
 *   failure, until it is UP again or no longer managed: nobody asked it to stop, so a crash
 *   (`kill -9`, then gone from EPMD) never reads as a planned stop (docs/decisions/0038).
 * - When the connection closes (peer closed, malformed data, health timeout) the state becomes
 *   DOWN at once (listener called synchronously from the socket's close event), and a reconnect
 *   starts immediately.
 * - Failed attempts are retried after 200 ms, doubling up to 10 s; success resets the delay.
 * - Health: while UP, `erlang:node()` is called through rex; the next call starts
 *   `healthIntervalMs` (1 s) after the previous reply; a call unanswered after `healthTimeoutMs`
 *   (2 s) closes the connection with kind `healthTimeout` (DOWN). A node that freezes (SIGSTOP, TCP
 *   still open) is therefore seen DOWN at most 1 s + 2 s = 3 s after it froze (plus timer
 *   latency), far inside 5 s and Erlang's own 60-75 s tick timeout. Reconnect attempts to a frozen
 *   node time out after `connectTimeoutMs` (the kernel accepts TCP, the handshake never answers);
 *   once the node runs again the pending attempt completes and the state returns to UP.
 */
export class ManagedNode {
  readonly target: NodeTarget;
  readonly #localName: string;
  readonly #epmdPort: number | undefined;
  readonly #timing: ManagedNodeTiming;
  readonly #listener: ManagedNodeListener;
  #state: NodeState | undefined;
  #failure: ConnectionFailure | undefined;
  #connection: NodeConnection | undefined;
  #backoffMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #healthTimer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** Seen UP since managed (or UP when last known): losses are DOWN from then on. */
  #seenUp: boolean;

  /** `local.localName` is our hidden node's name; `local.epmdPort` overrides EPMD's port 4369. */
  constructor(
    target: NodeTarget,
    local: { localName: string; epmdPort?: number },
    timing: ManagedNodeTiming,
    listener: ManagedNodeListener,
  ) {
    this.target = target;
    this.#localName = local.localName;
    this.#epmdPort = local.epmdPort;
    this.#timing = timing;
    this.#listener = listener;
    this.#backoffMs = timing.initialBackoffMs;
    this.#seenUp = target.wasUp === true;
  }

  /** The current state; undefined before the first attempt finished. */
  get state(): NodeState | undefined {
    return this.#state;
  }

  /** Why the node is not UP (undefined while UP or before the first attempt). */
  get failure(): ConnectionFailure | undefined {
    return this.#failure;
  }

  /** The open connection while UP. */
  get connection(): NodeConnection | undefined {
    return this.#connection?.isOpen ? this.#connection : undefined;
  }

  /** Runs the first attempt and resolves with the resulting state; retries continue in the background. */
  async start(): Promise<NodeState> {
    await this.#attempt();
    return this.#state ?? 'DOWN';
  }

  /** Stops managing: closes the connection, cancels retries and health calls. Idempotent. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#healthTimer);
    this.#connection?.close();
    this.#connection = undefined;
  }

  async #attempt(): Promise<void> {
    this.#retryTimer = undefined;
    if (this.#stopped) return;
    let connection: NodeConnection;
    try {
      connection = await NodeConnection.open({
        node: this.target.name,
        cookie: this.target.cookie,
        localName: this.#localName,
        connectTimeoutMs: this.#timing.connectTimeoutMs,
        tickIntervalMs: this.#timing.tickIntervalMs,
        ...(this.#epmdPort === undefined ? {} : { epmdPort: this.#epmdPort }),
      });
    } catch (error) {
      if (this.#stopped) return;
      const failure =
        error instanceof ConnectionFailure
          ? error
          : new ConnectionFailure('protocol', this.target.name, String(error), { cause: error });
      this.#set(this.#seenUp ? 'DOWN' : stateForFailure(failure.kind), failure);
      this.#scheduleRetry(this.#backoffMs);
      this.#backoffMs = Math.min(this.#backoffMs * 2, this.#timing.maxBackoffMs);
      return;
    }
    if (this.#stopped) {
      connection.close();
      return;
    }
    this.#connection = connection;
    this.#seenUp = true;
    this.#backoffMs = this.#timing.initialBackoffMs;
    connection.onClose((failure) => this.#onClosed(connection, failure));
    this.#set('UP', undefined);
    this.#scheduleHealth(connection);
  }

  #onClosed(connection: NodeConnection, failure: ConnectionFailure): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    clearTimeout(this.#healthTimer);
    if (this.#stopped) return;
    this.#set('DOWN', failure);
    this.#scheduleRetry(0);
  }

  #scheduleRetry(delayMs: number): void {
    if (this.#stopped) return;
    this.#retryTimer = setTimeout(() => void this.#attempt(), delayMs);
    this.#retryTimer.unref();
  }

  #scheduleHealth(connection: NodeConnection): void {
    this.#healthTimer = setTimeout(() => void this.#checkHealth(connection), this.#timing.healthIntervalMs);
    this.#healthTimer.unref();
  }

  async #checkHealth(connection: NodeConnection): Promise<void> {
    if (this.#stopped || !connection.isOpen) return;
    try {
      await connection.rpc('erlang', 'node', [], { timeoutMs: this.#timing.healthTimeoutMs });
    } catch (error) {
      if (error instanceof RpcTimeoutError) {
        connection.close(
          new ConnectionFailure(
            'healthTimeout',
            this.target.name,
            `no reply to erlang:node() within ${this.#timing.healthTimeoutMs} ms`,
            {
              code: 'timeout',
            },
          ),
        );
      }
      return; // closed meanwhile: #onClosed handles it
    }
    if (connection.isOpen && this.#connection === connection) this.#scheduleHealth(connection);
  }

  #set(state: NodeState, failure: ConnectionFailure | undefined): void {
    this.#failure = failure;
    if (state === this.#state) return;
    this.#state = state;
    this.#listener(state, failure);
  }
}
