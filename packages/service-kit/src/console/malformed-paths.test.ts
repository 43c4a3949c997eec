import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../create-service-app.js';
import { createLogger } from '../logger.js';
import { PROBLEM_ERROR_BODY } from '../openapi/error-body.js';
import { rawHttpExchange } from '../testing.js';
import { isCleanPath } from './serve-console.js';

// A console build and a secret beside it, which no probe may reach.
const root = mkdtempSync(path.join(tmpdir(), 'triad-console-probes-'));
mkdirSync(path.join(root, 'assets'));
writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1);');
writeFileSync(path.join(root, 'secret.txt'), 'top secret');

const lines: string[] = [];
const logger = createLogger({
  level: 'trace',
  format: 'json',
  destination: { write: (line: string) => void lines.push(line) },
  service: 'probe-test',
});
const app = await createServiceApp({
  logger,
  console: { home: 'templates', root },
  openApi: { title: 't', version: '1', description: 'test', errorBody: PROBLEM_ERROR_BODY },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = address !== null && typeof address === 'object' ? address.port : 0;
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

/** Traversal and encoding probes as attackers send them (raw, not normalised by a client). */
const PROBES = [
  '/assets/%2e%2e/secret.txt',
  '/assets/%2e%2e/%2e%2e/etc/passwd',
  '/assets/..%2fsecret.txt',
  '/assets/%2e%2e%5csecret.txt',
  '/assets/..\\secret.txt',
  '/assets/\\..\\..\\etc\\passwd',
  '/assets/main-abc123.js%00.png',
  '/assets/x%00',
  '/assets/%2fetc%2fpasswd',
  '/assets/%c0%ae%c0%ae/secret.txt',
  '/assets/%c0%af',
  '/assets/%zz',
  '/assets/%',
  '/assets/',
  '/assets/.',
  '/assets/..',
  '/assets/%ff%fe',
  '/docs/static/%2e%2e/%2e%2e/package.json',
  '/docs/static/..%5c..%5cpackage.json',
  '/docs/static/%00',
  '/docs/%2e%2e/secret.txt',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/%zz',
  '/\\evil.example/x',
  '/nodes/%00',
  '/nodes/%2e%2e/x',
];

describe('malformed and traversal paths', () => {
  it.each(PROBES)(
    'answers %s with 400 or 404, never the file, and logs it without an error or a stack',
    async (probe) => {
      const before = lines.length;
      const reply = await rawHttpExchange(
        port,
        `GET ${probe} HTTP/1.1\r\nHost: x\r\nAccept: text/html,*/*\r\nConnection: close\r\n\r\n`,
      );
      expect([400, 404]).toContain(reply.status);
      expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(reply.text).not.toContain('top secret');
      expect(reply.text).not.toContain('root:');
      const written = lines
        .slice(before)
        .map((line) => JSON.parse(line) as { level: number; err?: { stack?: string } });
      expect(written.filter((line) => line.level >= 50)).toEqual([]);
      expect(written.filter((line) => line.err?.stack !== undefined)).toEqual([]);
    },
  );

  it('still serves a real asset and a real client-side route', async () => {
    const asset = await fetch(`http://127.0.0.1:${port}/assets/main-abc123.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1);');
    const page = await fetch(`http://127.0.0.1:${port}/templates/x/versions/2`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('triad-console');
  });
});

describe('isCleanPath', () => {
  it('accepts plain paths, a trailing slash and an encoded ordinary character', () => {
    for (const ok of ['/', '/nodes/42', '/templates/My%20Template/versions/2', '/alarms/'])
      expect(isCleanPath(ok)).toBe(true);
  });

  it('refuses dot segments, doubled or encoded separators, backslashes and control characters', () => {
    for (const bad of [
      '',
      'nodes',
      '//evil.example',
      '/a//b',
      '/a/../b',
      '/a/./b',
      '/%2e%2e/x',
      '/%2E/x',
      '/a%2fb',
      '/a%5Cb',
      '/\\evil',
      '/a%00',
      '/a\tb',
      '/a b',
      '/a%7f',
    ])
      expect(isCleanPath(bad)).toBe(false);
  });
});
