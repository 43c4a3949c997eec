/**
 * One node manager as its own process, for tests that run several and kill one with SIGKILL:
 * `node --conditions=source --import tsx node-manager-instance.ts`. Settings come from the
 * environment as for `triad serve node-manager` (DATABASE_URL, TRIAD_NODE_MANAGER_LEASE_TTL_MS,
 * ...); it listens on a free port of 127.0.0.1, prints `listening <url>` and stops on SIGTERM.
 */
import { startNodeManagerServer } from '../server.js';

const server = await startNodeManagerServer({ port: 0 }, { handleSignals: true });
process.stdout.write(`listening ${server.url}\n`);
