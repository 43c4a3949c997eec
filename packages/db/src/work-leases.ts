/**
 * Sharing a set of items (managed nodes, devices) among the live instances of one service on one
 * PostgreSQL database, so that each item is worked on by exactly one instance. Each instance
 * heartbeats a row; an item's wanted owner is the live instance with the highest rendezvous hash
 * of (instance, item), so items spread evenly and move only when instances come or go; a lease
 * row with an expiry (database clock) makes ownership exclusive. See decision 0029.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely, type Migration } from 'kysely';
import type { AnyTables, Database } from './database.js';

/** What changed in one cycle. */
export interface WorkLeaseChange {
  /** Everything this instance owns now. */
  readonly owned: ReadonlySet<string>;
  /** Start working on these. */
  readonly gained: readonly string[];
  /** Stop working on these: released, taken over, deleted, or dropped when leases could not be renewed. */
  readonly lost: readonly string[];
}

export interface WorkLeasesOptions {
  readonly database: Database;
  /** Names the tables: `<prefix>_instances` and `<prefix>_work_leases` (see `workLeaseMigration`). */
  readonly tablePrefix: string;
  readonly instanceId: string;
  /** Every item to share, read at each cycle so that every instance converges on the same set. */
  readonly listItems: () => Promise<Iterable<string>>;
  /** How long a lease lasts without renewal. Default 15,000 ms. */
  readonly ttlMs?: number;
  /** Cycle period (heartbeat, renewal, balancing). Default 3,000 ms; at most a third of `ttlMs`. */
  readonly heartbeatMs?: number;
  /**
   * Called after each cycle that changed ownership, awaited, never concurrently with itself. The
   * next heartbeat waits for it: keep it short (start slow work in the background), or a long
   * takeover makes this instance look dead to the others.
   */
  readonly onChange?: (change: WorkLeaseChange) => void | Promise<void>;
  readonly log?: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
}

/** One live instance, as `instances()` lists it. */
export interface WorkLeaseInstance {
  readonly instanceId: string;
  readonly heartbeatAt: Date;
  /** Unexpired leases it holds. */
  readonly leases: number;
}

export interface WorkLeases {
  readonly instanceId: string;
  owns(item: string): boolean;
  readonly owned: ReadonlySet<string>;
  /** Runs one cycle now (lists every item: O(n)); resolves after its `onChange`. */
  refresh(): Promise<void>;
  /**
   * After creating `item`: claims its lease now when this instance is its wanted owner among the
   * live instances seen at the last cycle, without listing the items or running a cycle (one
   * statement, one row: O(1) per create). Resolves after `onChange`, true when this instance owns
   * `item` then. An item wanted by another instance is left to it (it claims it the same way when
   * told of the create); the periodic cycle still balances and claims orphans.
   */
  claim(item: string): Promise<boolean>;
  /** After deleting `item`: gives up its lease now when held here (one statement); resolves after `onChange`. */
  release(item: string): Promise<void>;
  /** Live instances (a heartbeat within the last three cycles), with their lease counts. */
  instances(): Promise<readonly WorkLeaseInstance[]>;
  /**
   * Stops the heartbeat, deletes this instance's leases and row (the others take over at their
   * next cycle) and calls `onChange` with everything lost. Idempotent.
   */
  stop(): Promise<void>;
}

const PREFIX = /^[a-z][a-z0-9_]{0,39}$/;

function tables(prefix: string): { instances: string; leases: string } {
  if (!PREFIX.test(prefix)) throw new RangeError(`work lease table prefix "${prefix}" must match ${PREFIX.source}`);
  return { instances: `${prefix}_instances`, leases: `${prefix}_work_leases` };
}

/** The migration creating `<prefix>_instances` and `<prefix>_work_leases`; part of a service's set. */
export function workLeaseMigration(tablePrefix: string): Migration {
  const names = tables(tablePrefix);
  return {
    async up(db: Kysely<AnyTables>): Promise<void> {
      await db.schema
        .createTable(names.instances)
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'timestamptz', (c) => c.notNull())
        .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable(names.leases)
        .addColumn('item_id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${names.leases}_owner`).on(names.leases).column('owner').execute();
    },
    async down(db: Kysely<AnyTables>): Promise<void> {
      await db.schema.dropTable(names.leases).ifExists().execute();
      await db.schema.dropTable(names.instances).ifExists().execute();
    },
  };
}

/** A fresh id for this process: `<hostname>-<pid>-<6 random hex>`. */
export function newInstanceId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Starts sharing: runs a first cycle (so `owned` is filled when this resolves) and then one every
 * `heartbeatMs`. Each cycle, on the database clock: heartbeats this instance; renews its leases
 * (what it no longer holds is lost); releases items that were deleted or are wanted by another
 * live instance; claims wanted items whose lease is absent or expired, and any item seen unleased
 * for 3 cycles (so no item is orphaned while instances disagree on the live set). An instance
 * that could not renew for `ttlMs - heartbeatMs` drops everything itself, before its leases
 * expire, so two instances never both work on an item beyond that margin. Takeover after a crash
 * takes about `ttlMs + heartbeatMs`; a stopped instance hands over at the others' next cycle.
 * On SQLite (one instance only) every listed item is owned and no table is used.
 */
export async function startWorkLeases(options: WorkLeasesOptions): Promise<WorkLeases> {
  const ttlMs = options.ttlMs ?? 15_000;
  const heartbeatMs = options.heartbeatMs ?? 3_000;
  if (!(ttlMs >= 3 * heartbeatMs && heartbeatMs >= 10)) {
    throw new RangeError(
      `work leases need heartbeatMs >= 10 and ttlMs >= 3 x heartbeatMs (got ${ttlMs}/${heartbeatMs})`,
    );
  }
  const store: LeaseStore =
    options.database.dialect === 'postgres'
      ? new PostgresLeaseStore(options.database.db, tables(options.tablePrefix), options.instanceId, ttlMs, heartbeatMs)
      : new SingleInstanceStore(options.instanceId);
  const leases = new LeaseLoop(options, store, ttlMs, heartbeatMs);
  await leases.refresh();
  leases.schedule();
  return leases;
}

/** What one cycle learnt from the store. */
interface CycleOutcome {
  readonly owned: Set<string>;
}

interface LeaseStore {
  cycle(items: readonly string[], unclaimedCycles: Map<string, number>): Promise<CycleOutcome>;
  /** Claims one item if this instance is its wanted owner and its lease is free; true when claimed. */
  claimOne(item: string): Promise<boolean>;
  /** Deletes this instance's lease of one item. */
  releaseOne(item: string): Promise<void>;
  instances(ownedCount: number): Promise<readonly WorkLeaseInstance[]>;
  releaseAll(): Promise<void>;
}

/** Cycles after which an item nobody leases is claimed by whoever sees it. */
const ORPHAN_CYCLES = 3;

class LeaseLoop implements WorkLeases {
  readonly instanceId: string;
  readonly #options: WorkLeasesOptions;
  readonly #store: LeaseStore;
  readonly #heartbeatMs: number;
  /** Renewal may fail for this long before everything is dropped. */
  readonly #fenceMs: number;
  readonly #unclaimed = new Map<string, number>();
  /** Replaced by each cycle, changed in place by `claim` and `release` (no copy per create). */
  #owned = new Set<string>();
  #lastRenewed = performance.now();
  #running: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #failures = 0;

  constructor(options: WorkLeasesOptions, store: LeaseStore, ttlMs: number, heartbeatMs: number) {
    this.instanceId = options.instanceId;
    this.#options = options;
    this.#store = store;
    this.#heartbeatMs = heartbeatMs;
    this.#fenceMs = ttlMs - heartbeatMs;
  }

  get owned(): ReadonlySet<string> {
    return this.#owned;
  }

  owns(item: string): boolean {
    return this.#owned.has(item);
  }

  refresh(): Promise<void> {
    return this.#enqueue(() => this.#cycle());
  }

  claim(item: string): Promise<boolean> {
    return this.#enqueue(async () => {
      if (this.#stopped) return false;
      if (this.#owned.has(item)) return true;
      if (!(await this.#store.claimOne(item))) return false;
      this.#unclaimed.delete(item);
      this.#owned.add(item);
      await this.#changed([item], []);
      return true;
    });
  }

  release(item: string): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#stopped || !this.#owned.has(item)) return;
      // Forgotten here first: a failed delete leaves a lease that expires and is then tidied.
      this.#owned.delete(item);
      await this.#changed([], [item]);
      await this.#store.releaseOne(item);
    });
  }

  /** Runs `work` after everything queued before it: cycles, claims and releases never overlap. */
  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#running.then(work);
    this.#running = next.then(
      () => {},
      () => {},
    );
    return next;
  }

  schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.refresh()
        .catch(() => {})
        .finally(() => this.schedule());
    }, this.#heartbeatMs);
    this.#timer.unref();
  }

  instances(): Promise<readonly WorkLeaseInstance[]> {
    return this.#store.instances(this.#owned.size);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return this.#running;
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#running = this.#running.then(async () => {
      await this.#apply(new Set());
      await this.#store.releaseAll().catch((error: unknown) => {
        this.#options.log?.warn({ err: error }, 'work leases not released; they expire by themselves');
      });
    });
    return this.#running;
  }

  async #cycle(): Promise<void> {
    if (this.#stopped) return;
    let outcome: CycleOutcome;
    try {
      const items = [...new Set(await this.#options.listItems())];
      outcome = await this.#store.cycle(items, this.#unclaimed);
      this.#lastRenewed = performance.now();
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      const fence = performance.now() - this.#lastRenewed >= this.#fenceMs && this.#owned.size > 0;
      if (this.#failures === 1 || fence) {
        this.#options.log?.warn(
          { err: error, instance: this.instanceId, dropping: fence ? this.#owned.size : 0 },
          fence ? 'work leases not renewed in time; dropping all work' : 'work lease cycle failed',
        );
      }
      if (fence) await this.#apply(new Set());
      throw error;
    }
    if (!this.#stopped) await this.#apply(outcome.owned);
  }

  async #apply(owned: Set<string>): Promise<void> {
    const before = this.#owned;
    const gained = [...owned].filter((item) => !before.has(item));
    const lost = [...before].filter((item) => !owned.has(item));
    this.#owned = owned;
    await this.#changed(gained, lost);
  }

  async #changed(gained: readonly string[], lost: readonly string[]): Promise<void> {
    if (gained.length === 0 && lost.length === 0) return;
    this.#options.log?.info(
      { instance: this.instanceId, owned: this.#owned.size, gained: gained.length, lost: lost.length },
      'work leases changed',
    );
    await this.#options.onChange?.({ owned: this.#owned, gained, lost });
  }
}

class SingleInstanceStore implements LeaseStore {
  readonly #instanceId: string;
  constructor(instanceId: string) {
    this.#instanceId = instanceId;
  }
  cycle(items: readonly string[]): Promise<CycleOutcome> {
    return Promise.resolve({ owned: new Set(items) });
  }
  claimOne(): Promise<boolean> {
    return Promise.resolve(true);
  }
  releaseOne(): Promise<void> {
    return Promise.resolve();
  }
  instances(ownedCount: number): Promise<readonly WorkLeaseInstance[]> {
    return Promise.resolve([{ instanceId: this.#instanceId, heartbeatAt: new Date(), leases: ownedCount }]);
  }
  releaseAll(): Promise<void> {
    return Promise.resolve();
  }
}

class PostgresLeaseStore implements LeaseStore {
  readonly #db: Kysely<AnyTables>;
  readonly #instances: ReturnType<typeof sql.table>;
  readonly #leases: ReturnType<typeof sql.table>;
  readonly #instanceId: string;
  readonly #ttlMs: number;
  /**
   * An instance counts as live while its heartbeat is younger than three cycles: one that stopped
   * cycling soon stops being anyone's wanted owner, so the items it held (once their leases expire)
   * go to the others instead of waiting to be orphaned.
   */
  readonly #liveMs: number;
  readonly #startedAt = new Date();
  /** The live instances of the last cycle: whom `claimOne` asks about an item's wanted owner. */
  #live: readonly string[] = [];

  constructor(
    db: Kysely<AnyTables>,
    names: { instances: string; leases: string },
    instanceId: string,
    ttlMs: number,
    heartbeatMs: number,
  ) {
    this.#db = db;
    this.#instances = sql.table(names.instances);
    this.#leases = sql.table(names.leases);
    this.#instanceId = instanceId;
    this.#ttlMs = ttlMs;
    this.#liveMs = Math.min(ttlMs, 3 * heartbeatMs);
  }

  async cycle(items: readonly string[], unclaimed: Map<string, number>): Promise<CycleOutcome> {
    const me = this.#instanceId;
    const ttl = this.#ttlMs;
    const db = this.#db;
    await sql`
      insert into ${this.#instances} (instance_id, host, pid, started_at, heartbeat_at)
      values (${me}, ${hostname()}, ${process.pid}, ${this.#startedAt}, now())
      on conflict (instance_id) do update set heartbeat_at = now()`.execute(db);
    const live = (
      await sql<{ instance_id: string }>`
        select instance_id from ${this.#instances}
        where heartbeat_at > now() - ${this.#liveMs} * interval '1 millisecond'`.execute(db)
    ).rows.map((row) => row.instance_id);
    this.#live = live;
    const renewed = await sql<{ item_id: string }>`
      update ${this.#leases} set expires_at = now() + ${ttl} * interval '1 millisecond'
      where owner = ${me} returning item_id`.execute(db);
    const listed = new Set(items);
    const held = new Set<string>();
    const release: string[] = [];
    for (const { item_id: item } of renewed.rows) {
      if (listed.has(item) && wantedOwner(live, item) === me) held.add(item);
      else release.push(item);
    }
    if (release.length > 0) {
      await sql`delete from ${this.#leases} where owner = ${me} and item_id = any(${release}::text[])`.execute(db);
    }
    const leased = new Set(
      (
        await sql<{ item_id: string }>`
          select item_id from ${this.#leases} where expires_at > now() and item_id = any(${items}::text[])`.execute(db)
      ).rows.map((row) => row.item_id),
    );
    const claim: string[] = [];
    for (const item of items) {
      if (held.has(item)) continue;
      if (leased.has(item)) {
        unclaimed.delete(item);
        continue;
      }
      const seen = (unclaimed.get(item) ?? 0) + 1;
      unclaimed.set(item, seen);
      if (wantedOwner(live, item) === me || seen >= ORPHAN_CYCLES) claim.push(item);
    }
    for (const item of unclaimed.keys()) if (!listed.has(item)) unclaimed.delete(item);
    if (claim.length > 0) {
      const claimed = await sql<{ item_id: string }>`
        insert into ${this.#leases} (item_id, owner, expires_at)
        select item, ${me}, now() + ${ttl} * interval '1 millisecond' from unnest(${claim}::text[]) as item
        on conflict (item_id) do update set owner = excluded.owner, expires_at = excluded.expires_at
        where ${this.#leases}.expires_at <= now()
        returning item_id`.execute(db);
      for (const { item_id: item } of claimed.rows) {
        held.add(item);
        unclaimed.delete(item);
      }
    }
    // Rows of instances gone for long, and expired leases of deleted items, are tidied by whoever cycles.
    const gone = 10 * ttl;
    await sql`delete from ${this.#instances} where heartbeat_at < now() - ${gone} * interval '1 millisecond'`.execute(
      db,
    );
    await sql`delete from ${this.#leases} where expires_at <= now() and not (item_id = any(${items}::text[]))`.execute(
      db,
    );
    return { owned: held };
  }

  async claimOne(item: string): Promise<boolean> {
    if (wantedOwner(this.#live, item) !== this.#instanceId) return false;
    const claimed = await sql<{ item_id: string }>`
      insert into ${this.#leases} (item_id, owner, expires_at)
      values (${item}, ${this.#instanceId}, now() + ${this.#ttlMs} * interval '1 millisecond')
      on conflict (item_id) do update set owner = excluded.owner, expires_at = excluded.expires_at
      where ${this.#leases}.expires_at <= now()
      returning item_id`.execute(this.#db);
    return claimed.rows.length === 1;
  }

  async releaseOne(item: string): Promise<void> {
    await sql`delete from ${this.#leases} where owner = ${this.#instanceId} and item_id = ${item}`.execute(this.#db);
  }

  async instances(): Promise<readonly WorkLeaseInstance[]> {
    const result = await sql<{ instance_id: string; heartbeat_at: Date; leases: string | number }>`
      select i.instance_id, i.heartbeat_at, count(l.item_id) as leases
      from ${this.#instances} i
      left join ${this.#leases} l on l.owner = i.instance_id and l.expires_at > now()
      where i.heartbeat_at > now() - ${this.#liveMs} * interval '1 millisecond'
      group by i.instance_id, i.heartbeat_at
      order by i.instance_id`.execute(this.#db);
    return result.rows.map((row) => ({
      instanceId: row.instance_id,
      heartbeatAt: row.heartbeat_at,
      leases: Number(row.leases),
    }));
  }

  async releaseAll(): Promise<void> {
    await sql`delete from ${this.#leases} where owner = ${this.#instanceId}`.execute(this.#db);
    await sql`delete from ${this.#instances} where instance_id = ${this.#instanceId}`.execute(this.#db);
  }
}

/** The live instance with the highest hash of (instance, item); ties cannot matter (ids differ). */
function wantedOwner(live: readonly string[], item: string): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const instance of live) {
    const score = createHash('sha1').update(`${instance}\n${item}`).digest().readUIntBE(0, 6);
    if (score > bestScore || (score === bestScore && best !== undefined && instance < best)) {
      best = instance;
      bestScore = score;
    }
  }
  return best;
}
