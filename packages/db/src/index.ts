export type { AnyTables, Database, DatabaseCapabilities, DialectName, OpenDatabaseOptions } from './database.js';
export { SQLITE_CAPABILITIES, POSTGRES_CAPABILITIES } from './database.js';
export { openDatabase } from './open-database.js';
export { redactUrl } from './redact-url.js';
export { DatabaseError, dbErrors, type DbErrorCode } from './errors.js';
export {
  migrateToLatest,
  type MigrateOptions,
  type MigrationSet,
  type MigrationOutcome,
  type MigrationReport,
} from './migrate-to-latest.js';
export { escapeLike, containsIgnoringCase, startsWith, binaryOrder, lockForTransaction } from './sql-helpers.js';
export { isUniqueViolation } from './constraint-errors.js';
export { QueryTemplates, type Slot } from './query-templates.js';
export { openServiceDatabase, type OpenServiceDatabaseOptions } from './open-service-database.js';
export {
  openReadReplicas,
  isUnreachable,
  type ReadReplicas,
  type ReadReplicaOptions,
  type ReadReplicaLog,
} from './read-replicas.js';
export { replicaStatus, type ReplicaStatus } from './replica-status.js';
export {
  openChangeBus,
  CHANGE_BUS_MAX_PAYLOAD_BYTES,
  type ChangeBus,
  type ChangeBusOptions,
  type Unsubscribe,
} from './change-bus.js';
export {
  startWorkLeases,
  workLeaseMigration,
  newInstanceId,
  type WorkLeases,
  type WorkLeasesOptions,
  type WorkLeaseChange,
  type WorkLeaseInstance,
} from './work-leases.js';
export { SecretKeyCheckTable, secretKeyCheckMigration } from './secret-key-checks.js';
