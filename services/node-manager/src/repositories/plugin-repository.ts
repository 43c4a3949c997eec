import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeManagerDatabase } from './node-manager-tables.js';
import type { EventOrigin } from '../events/node-manager-events.js';
import type { PluginRecord } from '../model/plugin-record.js';

/** Plugins a node gets when added, until the connection layer reports the real set. */
export const DEFAULT_PLUGINS: readonly PluginRecord[] = Object.freeze([
  { name: 'wombat_plugin_builtin_metrics', apps: 'kernel', state: 'on' },
  { name: 'wombat_plugin_alarm', apps: 'kernel', state: 'on' },
  { name: 'wombat_plugin_error_logger', apps: 'kernel', state: 'on' },
  { name: 'wombat_plugin_code_tracer', apps: 'kernel', state: 'off' },
  { name: 'wombat_plugin_sasl', apps: 'sasl', state: 'on' },
]);

/** Kysely queries of per-node plugins, kept in announcement order. */
export class PluginRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #listeners = new Set<(nodeId: string, origin: EventOrigin) => void>();

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  /**
   * Calls `listener(nodeId, origin)` after every change of a node's plugins (the monitor starts and
   * stops collectors), `remote` for a change another instance made (`changedElsewhere`); returns
   * its removal.
   */
  onChange(listener: (nodeId: string, origin: EventOrigin) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async list(nodeId: string): Promise<PluginRecord[]> {
    const rows = await this.#db
      .selectFrom('nm_plugins')
      .selectAll()
      .where('node_id', '=', nodeId)
      .orderBy('position')
      .execute();
    return rows.map((r) => ({
      name: r.plugin_name,
      apps: r.plugin_apps,
      state: r.plugin_state === 'on' ? 'on' : 'off',
    }));
  }

  /** Replaces a node's plugin set (connection layer, or the defaults on add). */
  async replace(nodeId: string, plugins: readonly PluginRecord[]): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('nm_plugins').where('node_id', '=', nodeId).execute();
      if (plugins.length === 0) return;
      await trx
        .insertInto('nm_plugins')
        .values(
          plugins.map((p, position) => ({
            node_id: nodeId,
            plugin_name: p.name,
            plugin_apps: p.apps,
            plugin_state: p.state,
            position,
          })),
        )
        .execute();
    });
    this.#changed(nodeId);
  }

  /** Sets one plugin's state (or all of the node's when `name` is undefined); returns how many changed. */
  async setState(nodeId: string, state: 'on' | 'off', name?: string): Promise<number> {
    let query = this.#db.updateTable('nm_plugins').set({ plugin_state: state }).where('node_id', '=', nodeId);
    if (name !== undefined) query = query.where('plugin_name', '=', name);
    const r = await query.executeTakeFirst();
    const changed = Number(r.numUpdatedRows);
    if (changed > 0) this.#changed(nodeId);
    return changed;
  }

  /** Another instance on the same database changed the node's plugins (the change bus says so). */
  changedElsewhere(nodeId: string): void {
    this.#changed(nodeId, 'remote');
  }

  #changed(nodeId: string, origin: EventOrigin = 'local'): void {
    for (const listener of this.#listeners) {
      try {
        listener(nodeId, origin);
      } catch {
        // A broken listener must not fail the change that was already stored.
      }
    }
  }
}
