import { secretKeyCheckMigration } from '@triad/db';

/**
 * Adds `nm_secret_key_checks`: per kind of secret, the check value of the key the stored secrets
 * are sealed with (service-kit `verifySecretKey`; a keyed hash of a fixed label, never the key),
 * so an instance started with another key refuses to start instead of failing every read (issue 23).
 */
export const secretKeyChecks = secretKeyCheckMigration('nm_secret_key_checks');
