/**
 * Test support for suites that need a real server program (snmpd, mosquitto, a Modbus-TCP
 * server). Absent, the suite skips and says what to install; with TRIAD_REQUIRE_SERVICES=1 (CI)
 * an absent program fails the run instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

/** True when `program` (an absolute path or a name on PATH) can be run. */
export function programAvailable(program: string): boolean {
  if (program.startsWith('/')) return existsSync(program);
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe` that runs only when every program is present. `install` names the Debian packages,
 * e.g. `apt-get install snmpd snmp`.
 */
export function describeWithPrograms(
  title: string,
  programs: readonly string[],
  install: string,
  body: () => void,
): void {
  const missing = programs.filter((program) => !programAvailable(program));
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const reason = `${missing.join(', ')} not found: ${install}`;
  if (process.env['TRIAD_REQUIRE_SERVICES'] === '1')
    describe(title, () => {
      it(`requires ${missing.join(', ')} because TRIAD_REQUIRE_SERVICES=1`, () => {
        throw new Error(reason);
      });
    });
  else describe.skip(`${title} (skipped: ${reason})`, body);
}

export { freePort, waitFor } from './local-server.js';
