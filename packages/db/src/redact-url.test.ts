import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('hides the password of a PostgreSQL URL and keeps user, host and database', () => {
    const out = redactUrl('postgres://app:s3cret@db.example:5432/triad');
    expect(out).toBe('postgres://app:***@db.example:5432/triad');
    expect(out).not.toContain('s3cret');
  });

  it('hides password-like query parameters', () => {
    const out = redactUrl('postgresql://db/triad?password=hunter2&sslmode=require');
    expect(out).not.toContain('hunter2');
    expect(out).toContain('sslmode=require');
  });

  it('leaves a URL without secrets unchanged', () => {
    expect(redactUrl('postgres://postgres@127.0.0.1:55432/postgres')).toBe(
      'postgres://postgres@127.0.0.1:55432/postgres',
    );
  });

  it('hides user:password@ in text that is not a parseable URL', () => {
    expect(redactUrl('weird://us er:pw@host')).not.toContain(':pw@');
  });
});
