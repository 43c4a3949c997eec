/**
 * Small messages from one service instance to every instance on the same database: "node 7 went
 * down", "device 3 was deleted". On PostgreSQL they travel by LISTEN/NOTIFY; on SQLite, which serves
 * one instance only, they stay in the process.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AnyTables, Database } from './database.js';
import { PostgresListener } from './postgres/pg-listener.js';

/** Most UTF-8 bytes of one payload (PostgreSQL's NOTIFY allows just under 8,000). */
export const CHANGE_BUS_MAX_PAYLOAD_BYTES = 7_900;

const TOPIC = /^[a-z0-9][a-z0-9_.-]{0,39}$/;

/** Stops one subscription. */
export type Unsubscribe = () => Promise<void>;

export interface ChangeBus {
  /**
   * Sends `payload` to every subscriber of `topic` in every instance on this database, this one
   * included, asynchronously (never before `publish` returns). With `executor` a Kysely
   * transaction, PostgreSQL sends it when that transaction commits and never if it rolls back.
   *
   * @throws RangeError for a topic outside `/^[a-z0-9][a-z0-9_.-]{0,39}$/` or a payload over
   *   7,900 UTF-8 bytes (publish an id and let receivers read the rest).
   */
  publish(topic: string, payload: string, executor?: Kysely<AnyTables>): Promise<void>;
  /**
   * Calls `onMessage` with each payload of `topic`. `onResync` is called after the listening
   * connection was lost and made again: what was sent meanwhile is lost, so reread state then.
   */
  subscribe(topic: string, onMessage: (payload: string) => void, onResync?: () => void): Promise<Unsubscribe>;
  /** Ends every subscription and the listening connection. Idempotent. */
  close(): Promise<void>;
}

export interface ChangeBusOptions {
  /** Where a lost listening connection is reported. */
  readonly log?: { warn(object: object, message: string): void };
}

/**
 * A bus over `database`: LISTEN/NOTIFY on one dedicated connection (made at the first subscribe,
 * made again with backoff when lost) for PostgreSQL, in-process delivery for SQLite. The channel
 * is derived from the schema and the topic, so instances on other schemas never hear each other.
 */
export function openChangeBus(database: Database, options: ChangeBusOptions = {}): ChangeBus {
  if (database.dialect === 'postgres' && database.newClient) {
    return new PostgresChangeBus(database, database.newClient, options);
  }
  return new LocalChangeBus();
}

/** Why `topic` and `payload` cannot be sent, if they cannot. */
function messageProblem(topic: string, payload: string): RangeError | undefined {
  if (!TOPIC.test(topic)) return new RangeError(`change bus topic "${topic}" must match ${TOPIC.source}`);
  const bytes = Buffer.byteLength(payload, 'utf8');
  if (bytes > CHANGE_BUS_MAX_PAYLOAD_BYTES) {
    return new RangeError(
      `change bus payload of ${bytes} bytes on "${topic}" exceeds ${CHANGE_BUS_MAX_PAYLOAD_BYTES}: ` +
        'publish an id instead',
    );
  }
  return undefined;
}

interface Subscriber {
  readonly onMessage: (payload: string) => void;
  readonly onResync: (() => void) | undefined;
}

/** Subscribers by topic, and the one delivery loop both buses share. */
class Subscribers {
  readonly #byTopic = new Map<string, Set<Subscriber>>();

  add(topic: string, subscriber: Subscriber): { first: boolean } {
    let set = this.#byTopic.get(topic);
    const first = set === undefined;
    if (!set) this.#byTopic.set(topic, (set = new Set()));
    set.add(subscriber);
    return { first };
  }

  /** Removes it; true when it was the topic's last. */
  remove(topic: string, subscriber: Subscriber): boolean {
    const set = this.#byTopic.get(topic);
    if (!set?.delete(subscriber)) return false;
    if (set.size > 0) return false;
    this.#byTopic.delete(topic);
    return true;
  }

  topics(): string[] {
    return [...this.#byTopic.keys()];
  }

  deliver(topic: string, payload: string): void {
    for (const subscriber of this.#byTopic.get(topic) ?? []) {
      try {
        subscriber.onMessage(payload);
      } catch {
        // One subscriber's failure must not stop the others; subscribers report their own errors.
      }
    }
  }

  resync(): void {
    for (const set of this.#byTopic.values()) for (const subscriber of set) subscriber.onResync?.();
  }

  clear(): void {
    this.#byTopic.clear();
  }
}

class LocalChangeBus implements ChangeBus {
  readonly #subscribers = new Subscribers();
  #closed = false;

  publish(topic: string, payload: string): Promise<void> {
    const problem = messageProblem(topic, payload);
    if (problem) return Promise.reject(problem);
    if (!this.#closed) setImmediate(() => this.#subscribers.deliver(topic, payload));
    return Promise.resolve();
  }

  subscribe(topic: string, onMessage: (payload: string) => void, onResync?: () => void): Promise<Unsubscribe> {
    const problem = messageProblem(topic, '');
    if (problem) return Promise.reject(problem);
    const subscriber = { onMessage, onResync };
    this.#subscribers.add(topic, subscriber);
    return Promise.resolve(() => {
      this.#subscribers.remove(topic, subscriber);
      return Promise.resolve();
    });
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#subscribers.clear();
    return Promise.resolve();
  }
}

class PostgresChangeBus implements ChangeBus {
  readonly #database: Database;
  readonly #subscribers = new Subscribers();
  readonly #listener: PostgresListener;
  readonly #channels = new Map<string, string>();
  readonly #topicOfChannel = new Map<string, string>();
  #schema: Promise<string> | undefined;

  constructor(database: Database, newClient: NonNullable<Database['newClient']>, options: ChangeBusOptions) {
    this.#database = database;
    this.#listener = new PostgresListener({
      newClient,
      onNotification: (channel, payload) => {
        const topic = this.#topicOfChannel.get(channel);
        if (topic !== undefined) this.#subscribers.deliver(topic, payload);
      },
      onReconnected: () => this.#subscribers.resync(),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  async publish(topic: string, payload: string, executor?: Kysely<AnyTables>): Promise<void> {
    const problem = messageProblem(topic, payload);
    if (problem) throw problem;
    const channel = await this.#channel(topic);
    await sql`select pg_notify(${channel}, ${payload})`.execute(executor ?? this.#database.db);
  }

  async subscribe(topic: string, onMessage: (payload: string) => void, onResync?: () => void): Promise<Unsubscribe> {
    const problem = messageProblem(topic, '');
    if (problem) throw problem;
    const subscriber = { onMessage, onResync };
    const channel = await this.#channel(topic);
    if (this.#subscribers.add(topic, subscriber).first) {
      try {
        await this.#listener.listen(channel);
      } catch (error) {
        this.#subscribers.remove(topic, subscriber);
        throw error;
      }
    }
    return async () => {
      if (this.#subscribers.remove(topic, subscriber)) await this.#listener.unlisten(channel);
    };
  }

  async close(): Promise<void> {
    this.#subscribers.clear();
    await this.#listener.close();
  }

  /**
   * `triad_` + 40 hex of the schema and topic: a valid identifier of 46 characters, below 63.
   * The schema is the database's `schema`, else the session's `current_schema()` (a URL may set
   * `search_path` itself), read once.
   */
  async #channel(topic: string): Promise<string> {
    const known = this.#channels.get(topic);
    if (known !== undefined) return known;
    this.#schema ??= this.#database.schema
      ? Promise.resolve(this.#database.schema)
      : sql<{ schema: string | null }>`select current_schema() as schema`
          .execute(this.#database.db)
          .then((result) => result.rows[0]?.schema ?? '')
          .catch((error: unknown) => {
            this.#schema = undefined;
            throw error;
          });
    const schema = await this.#schema;
    const channel = `triad_${createHash('sha1').update(`${schema}\u0000${topic}`).digest('hex')}`;
    this.#channels.set(topic, channel);
    this.#topicOfChannel.set(channel, topic);
    return channel;
  }
}
