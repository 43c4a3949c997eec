import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithDeployTools } from './describe-with-deploy-tools.js';

const UNITS = fileURLToPath(new URL('systemd/', import.meta.url));
const SERVICES = ['node-manager', 'content-api', 'templates'];

describeWithDeployTools('deploy/systemd units', { programs: ['systemd-analyze'] }, () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-units-'));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('has one templated unit per service', async () => {
    const units = (await readdir(UNITS)).filter((name) => name.endsWith('.service')).sort();
    expect(units).toEqual(SERVICES.map((s) => `triad-${s}@.service`).sort());
  });

  it.each(SERVICES)(
    'triad-%s@<port> passes systemd-analyze verify and serves that one service on that port',
    async (service) => {
      const unit = `triad-${service}@.service`;
      const instance = path.join(directory, `triad-${service}@9123.service`);
      await symlink(path.join(UNITS, unit), instance);
      const verified = spawnSync('systemd-analyze', ['verify', instance], { encoding: 'utf8' });
      // Paths of a host where Triad is installed are absent here; any other complaint is a fault.
      const complaints = `${verified.stdout}${verified.stderr}`
        .split('\n')
        .filter(
          (line) => line.trim() !== '' && !/\/opt\/triad|\/usr\/bin\/node|Command .* is not executable/.test(line),
        );
      expect(complaints).toEqual([]);
      const text = await readFile(path.join(UNITS, unit), 'utf8');
      expect(text).toMatch(
        new RegExp(`^ExecStart=.* serve ${service} --host 127\\.0\\.0\\.1 --port %i --no-demo$`, 'm'),
      );
    },
  );
});
