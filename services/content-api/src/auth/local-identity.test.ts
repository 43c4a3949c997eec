import { describe, expect, it } from 'vitest';
import { loadContentApiConfig } from '../config.js';
import { createContentAuth } from './content-auth.js';
import { createLocalIdentity } from './local-identity.js';

const base = { issuer: 'urn:test', audience: 'urn:test', lifetimeSeconds: 60, scope: 'content:read' };

describe('createLocalIdentity', () => {
  it('grants each client its own scope and nothing for a wrong secret or an unknown id', async () => {
    const identity = await createLocalIdentity({
      ...base,
      clientId: 'reader',
      clientSecret: 'reader-secret',
      admin: { clientId: 'admin', clientSecret: 'admin-secret-0123456', generate: false, scope: 'content:admin' },
    });
    expect(await identity.scopeOf('reader', 'reader-secret')).toBe('content:read');
    expect(await identity.scopeOf('admin', 'admin-secret-0123456')).toBe('content:admin');
    expect(await identity.scopeOf('admin', 'reader-secret')).toBeUndefined();
    expect(await identity.scopeOf('reader', 'admin-secret-0123456')).toBeUndefined();
    expect(await identity.scopeOf('nobody', 'reader-secret')).toBeUndefined();
    expect(identity.admin).toEqual({ clientId: 'admin', scope: 'content:admin' });
  });

  it('generates an admin client only when asked and none is configured', async () => {
    const generated = await createLocalIdentity({ ...base, admin: { generate: true, scope: 'content:admin' } });
    const { clientId, generatedSecret } = generated.admin!;
    expect(clientId).toMatch(/^triad-admin-[0-9a-f]{12}$/);
    expect(await generated.scopeOf(clientId, generatedSecret!)).toBe('content:admin');
    const none = await createLocalIdentity({ ...base, admin: { generate: false, scope: 'content:admin' } });
    expect(none.admin).toBeUndefined();
  });
});

describe('createContentAuth', () => {
  it('refuses an admin scope equal to the read scope', async () => {
    const config = loadContentApiConfig({}, { demo: false, logLevel: 'silent', adminScope: 'content:read' });
    await expect(createContentAuth(config)).rejects.toThrow(/TRIAD_CONTENT_ADMIN_SCOPE must differ/);
  });
});
