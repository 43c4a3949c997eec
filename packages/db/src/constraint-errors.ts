/**
 * True when a driver error says a UNIQUE or PRIMARY KEY constraint was violated
 * (PostgreSQL SQLSTATE 23505; SQLite `SQLITE_CONSTRAINT_UNIQUE` / `_PRIMARYKEY`).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
