import type { AnyTables } from '@triad/db';
import type { Kysely } from 'kysely';

/**
 * Runs the PostgreSQL search layout's statements: a transaction (or a migration's connection);
 * untyped, every statement is raw SQL.
 */
export type SqlExecutor = Kysely<AnyTables>;
