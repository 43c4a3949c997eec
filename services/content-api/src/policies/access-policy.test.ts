import { describe, expect, it } from 'vitest';
import { ProblemError } from '@triad/service-kit';
import type { Caller } from '../auth/token-verifier.js';
import { AccessPolicy, authorizeScope } from './access-policy.js';

function statusOf(check: () => void): { status: number; detail: string | undefined } {
  try {
    check();
    return { status: 200, detail: undefined };
  } catch (error) {
    if (error instanceof ProblemError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

describe('authorizeScope', () => {
  it('refuses a valid token without the required scope with 403', () => {
    expect(statusOf(() => authorizeScope({ subject: 'client-1', scopes: ['openid'] }, 'content:read'))).toEqual({
      status: 403,
      detail: 'The token lacks the scope content:read',
    });
  });

  it('lets a token with the scope pass', () => {
    expect(
      statusOf(() => authorizeScope({ subject: 'client-1', scopes: ['openid', 'content:read'] }, 'content:read')),
    ).toEqual({ status: 200, detail: undefined });
  });
});

describe('AccessPolicy', () => {
  const reader: Caller = { subject: 'reader', scopes: ['content:read'] };
  const policy = new AccessPolicy({
    verifyToken: (authorization) => Promise.resolve({ ...reader, subject: authorization ?? '' }),
    requiredScope: 'content:read',
    adminScope: 'content:admin',
  });

  it('returns the verified caller of a content call that has the required scope', async () => {
    expect(await policy.require('reader', 'content')).toEqual(reader);
  });

  it('refuses the admin API to a token with only the required scope with 403', async () => {
    await expect(policy.require('reader', 'admin')).rejects.toMatchObject({
      status: 403,
      detail: 'The token lacks the scope content:admin',
    });
  });
});
