import { spawnSync } from 'node:child_process';
import { planPostgresSuite } from '@triad/db/testing';
import { describe, it } from 'vitest';

export interface DeployToolsNeeds {
  /** Programs that must be on PATH (haproxy, systemd-analyze). */
  readonly programs: readonly string[];
  /** The suite also needs a PostgreSQL server (`TRIAD_TEST_DATABASE_URL`). */
  readonly postgres?: boolean;
}

/**
 * `describe` for a suite that runs deployment programs: runs when every one is on PATH (and
 * PostgreSQL is configured when asked), else skips with a title saying what to install, or fails
 * under `TRIAD_REQUIRE_SERVICES=1`. The body gets the PostgreSQL URL (empty when not asked for).
 */
export function describeWithDeployTools(
  title: string,
  needs: DeployToolsNeeds,
  body: (postgresUrl: string) => void,
): void {
  const reasons = needs.programs
    .filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0)
    .map((program) => `${program} not found: install ${program === 'systemd-analyze' ? 'systemd' : program}`);
  const postgres = needs.postgres ? planPostgresSuite(process.env) : undefined;
  if (postgres !== undefined && postgres.kind !== 'run') reasons.push(postgres.reason);
  if (reasons.length === 0) {
    describe(title, () => body(postgres?.kind === 'run' ? postgres.url : ''));
    return;
  }
  const reason = reasons.join('; ');
  if (process.env['TRIAD_REQUIRE_SERVICES'] === '1') {
    describe(title, () => {
      it('requires these programs because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(reason);
      });
    });
  } else describe.skip(`${title} (skipped: ${reason})`, () => body(''));
}
