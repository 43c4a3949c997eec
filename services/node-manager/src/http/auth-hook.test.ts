import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Authenticator } from '../auth/authenticator.js';
import { useAuthentication } from './auth-hook.js';

/** Authentication off: every caller is the anonymous admin. */
const openAuthenticator = {
  enabled: false,
  anonymous: { username: 'admin', role: 'admin', rights: ['read'], tags: 'all', authenticated: false },
} as unknown as Authenticator;

describe('useAuthentication', () => {
  it('refuses at registration a route that declares no access', async () => {
    const app = Fastify();
    useAuthentication(app, openAuthenticator);
    expect(() => app.get('/undeclared', () => 'x')).toThrow(/GET \/undeclared declares no access/);
    await app.close();
  });

  it('accepts routes that declare access or are public', async () => {
    const app = Fastify();
    useAuthentication(app, openAuthenticator);
    app.get('/declared', { config: { access: 'read' } }, () => 'declared');
    app.get('/public', { config: { publicRoute: true } }, () => 'public');
    expect((await app.inject({ url: '/declared' })).body).toBe('declared');
    expect((await app.inject({ url: '/public' })).body).toBe('public');
    await app.close();
  });
});
