import type pg from 'pg';

export interface PostgresListenerOptions {
  readonly newClient: () => pg.Client;
  readonly onNotification: (channel: string, payload: string) => void;
  /** After a lost connection was made again and every channel is listened to again. */
  readonly onReconnected: () => void;
  readonly log?: { warn(object: object, message: string): void };
  /** First wait before connecting again, doubled per failure up to `maxBackoffMs`. Default 100. */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

/**
 * One PostgreSQL session that LISTENs to a set of channels. It connects at the first `listen`;
 * when the session is lost it connects again (100 ms, doubling to 5 s), listens to every channel
 * again and calls `onReconnected`, because what was notified meanwhile is lost.
 */
export class PostgresListener {
  readonly #options: PostgresListenerOptions;
  readonly #channels = new Set<string>();
  #client: pg.Client | undefined;
  /** The connection in progress (or made); undefined when none is wanted or it was lost. */
  #connecting: Promise<pg.Client> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #backoffMs: number;
  #closed = false;

  constructor(options: PostgresListenerOptions) {
    this.#options = options;
    this.#backoffMs = options.minBackoffMs ?? 100;
  }

  /** Listens to `channel` (a plain identifier), connecting first when needed. */
  async listen(channel: string): Promise<void> {
    if (this.#closed) throw new Error('the listener is closed');
    this.#channels.add(channel);
    const client = await this.#connect();
    await client.query(`LISTEN ${quote(channel)}`);
  }

  async unlisten(channel: string): Promise<void> {
    if (!this.#channels.delete(channel)) return;
    const client = this.#client;
    if (client) await client.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    clearTimeout(this.#retry);
    const pending = this.#connecting;
    this.#connecting = undefined;
    this.#client = undefined;
    const client = await pending?.catch(() => undefined);
    await client?.end().catch(() => {});
  }

  #connect(): Promise<pg.Client> {
    this.#connecting ??= this.#open().catch((error: unknown) => {
      this.#connecting = undefined;
      throw error;
    });
    return this.#connecting;
  }

  async #open(): Promise<pg.Client> {
    const client = this.#options.newClient();
    client.on('notification', (message) => {
      if (client === this.#client) this.#options.onNotification(message.channel, message.payload ?? '');
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('connection ended')));
    await client.connect();
    if (this.#closed) {
      await client.end().catch(() => {});
      throw new Error('the listener is closed');
    }
    this.#client = client;
    return client;
  }

  #lost(client: pg.Client, error: Error): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    this.#connecting = undefined;
    client.end().catch(() => {});
    this.#options.log?.warn({ err: error }, 'change bus connection lost; connecting again');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => {
      void this.#reconnect();
    }, this.#backoffMs);
    this.#retry.unref();
  }

  async #reconnect(): Promise<void> {
    if (this.#closed) return;
    try {
      const client = await this.#connect();
      for (const channel of this.#channels) await client.query(`LISTEN ${quote(channel)}`);
      this.#backoffMs = this.#options.minBackoffMs ?? 100;
      this.#options.onReconnected();
    } catch (error) {
      this.#connecting = undefined;
      const current = this.#client;
      this.#client = undefined;
      await current?.end().catch(() => {});
      this.#options.log?.warn({ err: error }, 'change bus could not connect; trying again');
      this.#backoffMs = Math.min(this.#backoffMs * 2, this.#options.maxBackoffMs ?? 5_000);
      this.#scheduleReconnect();
    }
  }
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
