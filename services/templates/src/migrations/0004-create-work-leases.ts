import { workLeaseMigration } from '@triad/db';

/** Prefix of the lease tables (`templates_instances`, `templates_work_leases`). */
export const TEMPLATES_LEASE_PREFIX = 'templates';

/**
 * `templates_instances` and `templates_work_leases` (issue 17): the live template-service
 * instances on a PostgreSQL database and which of them collects each device (decision 0028).
 */
export const createWorkLeases = workLeaseMigration(TEMPLATES_LEASE_PREFIX);
