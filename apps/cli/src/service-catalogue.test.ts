import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from './service-catalogue.js';

describe('triad serve service catalogue', () => {
  it('lists the three services on their default ports', () => {
    expect(SERVICES.map((s) => [s.name, s.defaultPort])).toEqual([
      ['node-manager', 8080],
      ['content-api', 8081],
      ['templates', 8082],
    ]);
  });

  it.each(SERVICES.map((s) => [s.name, s] as const))(
    'starts %s with the options serve passes, answers /healthz and closes',
    async (_name, service) => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'triad-serve-'));
      const previous = process.env['TRIAD_LOG_LEVEL'];
      process.env['TRIAD_LOG_LEVEL'] = 'silent';
      try {
        const running = await service.start({ host: '127.0.0.1', port: 0, dataDir, demo: false });
        try {
          expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
        } finally {
          await running.close();
        }
      } finally {
        if (previous === undefined) delete process.env['TRIAD_LOG_LEVEL'];
        else process.env['TRIAD_LOG_LEVEL'] = previous;
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
