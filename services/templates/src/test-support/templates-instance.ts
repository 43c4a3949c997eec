/**
 * One template service as its own process, for tests that run several and kill some with
 * SIGKILL: `node --conditions=source --import tsx templates-instance.ts`. Settings come from the
 * environment as for `triad serve templates` (DATABASE_URL, TRIAD_TEMPLATES_LEASE_TTL_MS, ...);
 * it listens on a free port of 127.0.0.1, prints `listening <url>` and stops on SIGTERM.
 */
import { startTemplatesServer } from '../server.js';

const server = await startTemplatesServer({ port: 0 }, { handleSignals: true });
process.stdout.write(`listening ${server.url}\n`);
