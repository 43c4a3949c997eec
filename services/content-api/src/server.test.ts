import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_MEDIA_TYPE } from './http/media-types.js';
import { startContentApiServer, type RunningContentApiServer } from './server.js';

describe('startContentApiServer', () => {
  let directory: string;
  let server: RunningContentApiServer;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-content-'));
    // Searches run on two worker threads (decision 0051): the wiring from the setting is tested here.
    server = await startContentApiServer(
      { dataDir: directory, port: 0, demoArticles: 60, logLevel: 'silent', searchThreads: 2, searchThreadsFrom: 0 },
      { env: {} },
    );
  });
  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('seeds the demo catalog, prints a generated client and serves a token usable for search', async () => {
    const id = /OAuth client id: (\S+)/.exec(server.notes.join('\n'))?.[1];
    const secret = /OAuth client secret: (\S+)/.exec(server.notes.join('\n'))?.[1];
    expect(id).toMatch(/^triad-[0-9a-f]{12}$/);
    expect(server.notes.some((n) => n.includes('curl') && n.includes(server.url))).toBe(true);
    const tokenResponse = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id!, client_secret: secret! }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const search = await fetch(`${server.url}/api/articles?limit=1`, {
      headers: { authorization: `Bearer ${token}`, accept: CONTENT_MEDIA_TYPE, 'x-svc-requisitioner-id': 'me' },
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { total: number }).total).toBe(60);
  });

  it('prints a generated admin client whose token may add a shop but not search', async () => {
    const notes = server.notes.join('\n');
    const id = /admin client id: (\S+)/.exec(notes)?.[1];
    const secret = /admin client secret: (\S+)/.exec(notes)?.[1];
    expect(id).toMatch(/^triad-admin-[0-9a-f]{12}$/);
    const issued = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id!, client_secret: secret! }),
    });
    const { access_token: token, scope } = (await issued.json()) as { access_token: string; scope: string };
    expect(scope).toBe('content:admin');
    const added = await fetch(`${server.url}/admin/business-shops`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'printed', name: 'Printed' }),
    });
    expect(added.status).toBe(201);
    const search = await fetch(`${server.url}/api/articles?limit=1`, {
      headers: { authorization: `Bearer ${token}`, accept: CONTENT_MEDIA_TYPE, 'x-svc-requisitioner-id': 'me' },
    });
    expect(search.status).toBe(403);
  });
});
