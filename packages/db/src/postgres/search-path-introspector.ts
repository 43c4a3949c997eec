import {
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/** Kysely's own bookkeeping tables, left out unless `withInternalKyselyTables`. */
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface ColumnRow {
  readonly schema: string;
  readonly table: string;
  readonly tableType: string;
  readonly column: string;
  readonly type: string;
  readonly typeSchema: string;
  readonly notNull: boolean;
  readonly hasDefault: boolean;
  readonly autoIncrementing: boolean;
  readonly comment: string | null;
}

/**
 * PostgreSQL introspection limited to the schemas of the connection's `search_path` (a service's
 * own schema, then `public`). Kysely's own introspector reads every schema of the database and
 * looks each one up again by name, so a schema dropped meanwhile by another process (another
 * service instance, a parallel test suite) made it fail with "schema does not exist", and with it
 * Kysely's migrator, which asks for the tables before every run.
 */
export class SearchPathIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace
      where nspname !~ '^pg_' and nspname <> 'information_schema'
      order by nspname`.execute(this.#db);
    return result.rows.map((row) => ({ name: row.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const result = await sql<ColumnRow>`
      select ns.nspname as "schema", c.relname as "table", c.relkind as "tableType",
        a.attname as "column", t.typname as "type", tns.nspname as "typeSchema",
        a.attnotnull as "notNull", a.atthasdef as "hasDefault",
        (a.attidentity <> '' or pg_catalog.pg_get_serial_sequence(c.oid::regclass::text, a.attname) is not null)
          as "autoIncrementing",
        pg_catalog.col_description(a.attrelid, a.attnum) as "comment"
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = any (pg_catalog.current_schemas(false))
        and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of result.rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.includes(row.table)) continue;
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.tableType === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: !row.notNull,
        isAutoIncrementing: row.autoIncrementing,
        hasDefaultValue: row.hasDefault,
        ...(row.comment !== null ? { comment: row.comment } : {}),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
