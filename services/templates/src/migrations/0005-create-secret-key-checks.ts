import { secretKeyCheckMigration } from '@triad/db';

/**
 * `templates_secret_key_checks` (issue 23): the check value of the key sealing the device
 * secrets (service-kit `verifySecretKey`; never the key), so an instance started with another key
 * refuses to start instead of failing every device read.
 */
export const createSecretKeyChecks = secretKeyCheckMigration('templates_secret_key_checks');
