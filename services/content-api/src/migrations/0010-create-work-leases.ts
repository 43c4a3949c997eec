import { workLeaseMigration } from '@triad/db';

/**
 * Creates `content_instances` and `content_work_leases` (decision 0029): the instances of the
 * content API on one PostgreSQL database agree which one runs the price timer (decision 0033).
 * The prefix is `CONTENT_LEASE_PREFIX`.
 */
export const createContentWorkLeases = workLeaseMigration('content');
