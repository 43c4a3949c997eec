import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { AnyTables, DatabaseCapabilities } from './database.js';

/** Escapes `%`, `_` and `\` so text matches literally inside a LIKE pattern with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `value` contains `needle`, ignoring case, with LIKE wildcards in the needle taken literally.
 * PostgreSQL uses ILIKE (all of Unicode); SQLite lower-cases both sides (ASCII case folding).
 */
export function containsIgnoringCase(
  capabilities: DatabaseCapabilities,
  value: Expression<string | null>,
  needle: string,
): RawBuilder<boolean> {
  const pattern = `%${escapeLike(needle)}%`;
  if (capabilities.ilike) return sql<boolean>`(${value} ilike ${pattern} escape '\\')`;
  return sql<boolean>`(lower(${value}) like lower(${pattern}) escape '\\')`;
}

/** `value` starts with `prefix`, comparing exactly (case-sensitive on both engines). */
export function startsWith(value: Expression<string>, prefix: string): RawBuilder<boolean> {
  // Both engines count characters (code points) in substr, not UTF-16 units.
  return sql<boolean>`(substr(${value}, 1, ${[...prefix].length}) = ${prefix})`;
}

/** `value` under the collation that orders by code point, for an ORDER BY that is the same on both engines. */
export function binaryOrder(capabilities: DatabaseCapabilities, value: Expression<string>): RawBuilder<string> {
  return sql<string>`${value} collate ${sql.raw(capabilities.binaryCollation)}`;
}

/**
 * Makes the rest of transaction `trx` the only one holding `name` (say `nm:family-names`) until it
 * ends, for a check-then-write that must not interleave with another (two instances creating the same
 * name). PostgreSQL: a transaction-scoped advisory lock, per name and schema, so services and tests
 * sharing one server do not wait on each other. SQLite has one writer and Kysely runs a
 * transaction on one connection, so nothing more is needed there.
 */
export async function lockForTransaction(
  trx: Kysely<AnyTables>,
  capabilities: DatabaseCapabilities,
  name: string,
): Promise<void> {
  if (!capabilities.concurrentWriters) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}), hashtext(current_schema()))`.execute(trx);
}
