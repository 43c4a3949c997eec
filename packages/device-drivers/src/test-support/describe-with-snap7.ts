import { loadSnap7, SNAP7_INSTALL } from '../drivers/s7/snap7-client.js';
import { describeWithPrograms } from './real-server.js';

/**
 * `describe` that runs only when node-snap7 loads here (its native part built at install): skips
 * saying how to install it otherwise, or fails with TRIAD_REQUIRE_SERVICES=1.
 */
export function describeWithSnap7(title: string, body: () => void): void {
  const loads = !(loadSnap7() instanceof Error);
  describeWithPrograms(title, [loads ? process.execPath : 'node-snap7 (built)'], SNAP7_INSTALL, body);
}
