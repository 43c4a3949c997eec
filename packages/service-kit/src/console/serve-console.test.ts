import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../create-service-app.js';
import { checkOpenApiCoverage } from '../openapi/openapi-coverage.js';
import { PROBLEM_ERROR_BODY } from '../openapi/error-body.js';
import { IMMUTABLE_CACHE, NO_CACHE } from './serve-console.js';

const root = mkdtempSync(path.join(tmpdir(), 'triad-console-'));
mkdirSync(path.join(root, 'assets'));
writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1);');

const links = [
  { area: 'operator', title: 'Nodes and alarms', url: 'http://127.0.0.1:8080' },
  { area: 'catalog', title: 'Catalog', url: 'http://127.0.0.1:8081' },
] as const;
const app = await createServiceApp({
  console: { home: 'catalog', root, links: () => links, apiPrefixes: ['/templates'] },
  openApi: { title: 't', version: '1', description: 'test', errorBody: PROBLEM_ERROR_BODY },
});
app.get('/api/things', { schema: { summary: 'things', operationId: 'things', response: { 200: {} } } }, () => ({}));
await app.ready();
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('serveConsole', () => {
  it('serves index.html at / with no-cache and the page config in a meta element', async () => {
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(NO_CACHE);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const content = /<meta name="triad-console" content="([^"]*)"/.exec(response.body)?.[1] ?? '';
    const config: unknown = JSON.parse(content.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    expect(config).toEqual({ home: 'catalog', links, settings: {} });
  });

  it('serves hashed assets with immutable cache headers', async () => {
    const response = await app.inject({ url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('answers a browser navigation to a client-side route with index.html', async () => {
    const response = await app.inject({ url: '/nodes/42?range=24h', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('triad-console');
  });

  it.each([
    '/api/nope',
    '/docs/nope',
    '/healthz/x',
    '/metrics/x',
    '/oauth/x',
    '/admin/x',
    '/templates/x',
    '/assets/x.js',
  ])('never answers %s with the page, even to a browser', async (url) => {
    const response = await app.inject({ url, headers: html });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('triad-console');
  });

  it('keeps the 404 problem for an API client asking for an unknown path', async () => {
    const response = await app.inject({ url: '/nodes', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/problem\+json/);
  });

  it('keeps console routes out of the OpenAPI document and its coverage check', async () => {
    const coverage = await checkOpenApiCoverage(app);
    expect(coverage.undocumented).toEqual([]);
    const document = (await app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).sort()).toEqual(['/api/things', '/healthz']);
  });

  it('answers 503 with how to build it when the build is missing', async () => {
    const bare = await createServiceApp({ console: { home: 'operator', root: path.join(root, 'absent') } });
    const response = await bare.inject({ url: '/' });
    await bare.close();
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build -w apps/console');
  });
});
