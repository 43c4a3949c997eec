/**
 * The package's error catalogue. Codes never change meaning.
 */
export const dbErrors = Object.freeze({
  DB_ERR_OPTIONS_MISSING: 'Neither a database URL nor a SQLite file was given',
  DB_ERR_URL_UNSUPPORTED: 'The database URL scheme is not supported (use postgres://, postgresql://, sqlite: or file:)',
  DB_ERR_SCHEMA_NAME_INVALID: 'The PostgreSQL schema name is not a plain identifier',
  DB_ERR_MIGRATION_FAILED: 'A database migration failed',
  DB_ERR_SQLITE_IN_USE: 'Another service instance already serves this SQLite file',
} as const);

export type DbErrorCode = keyof typeof dbErrors;

/** Every error this package throws on purpose. `code` is from `dbErrors`; `details` is structured context. */
export class DatabaseError extends Error {
  readonly code: DbErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    code: DbErrorCode,
    detail?: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(detail ? `${dbErrors[code]}: ${detail}` : dbErrors[code], options);
    this.name = 'DatabaseError';
    this.code = code;
    this.details = Object.freeze({ ...details });
  }
}
