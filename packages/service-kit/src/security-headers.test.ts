import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceApp } from './create-service-app.js';
import { PROBLEM_ERROR_BODY } from './openapi/error-body.js';
import { API_CONTENT_SECURITY_POLICY, PAGE_CONTENT_SECURITY_POLICY } from './security-headers.js';

const root = mkdtempSync(path.join(tmpdir(), 'triad-console-headers-'));
mkdirSync(path.join(root, 'assets'));
writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1);');
const app = await createServiceApp({
  console: { home: 'templates', root },
  openApi: { title: 't', version: '1', description: 'test', errorBody: PROBLEM_ERROR_BODY },
});
await app.ready();
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

function expectCommonHeaders(headers: Record<string, unknown>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('securityHeaders', () => {
  it.each(['/', '/templates/x', '/docs', '/docs/'])(
    'gives the HTML page %s a CSP without inline script that forbids framing',
    async (url) => {
      const response = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expectCommonHeaders(response.headers);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toBe(PAGE_CONTENT_SECURITY_POLICY);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    },
  );

  it('serves /docs without an inline script: every script of the page has a src', async () => {
    const page = await app.inject({ url: '/docs' });
    const scripts = page.body.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script).toMatch(/\ssrc="/);
      expect(
        script
          .replace(/<script\b[^>]*>/, '')
          .replace('</script>', '')
          .trim(),
      ).toBe('');
    }
  });

  it.each([
    ['/healthz', 200],
    ['/openapi.json', 200],
    ['/assets/main-abc123.js', 200],
    ['/api/nope', 404],
  ])('gives %s (not HTML) nosniff, no framing and a CSP that loads nothing', async (url, status) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(status);
    expectCommonHeaders(response.headers);
    expect(response.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
  });
});
