import { describe, expect, it } from 'vitest';
import {
  channelBody,
  channelProblems,
  emptyChannelDraft,
  lastError,
  recipients,
  refusedChannelField,
  type DeliveryWire,
} from './notification-wire.js';

describe('notification forms', () => {
  it('asks a webhook for an http(s) URL and a secret of 16 characters, each at its field', () => {
    const draft = { ...emptyChannelDraft('webhook'), url: 'ftp://example.com/x', secret: 'short' };
    expect(Object.keys(channelProblems(draft)).sort()).toEqual(['secret', 'url']);
    expect(channelProblems({ ...draft, url: 'https://hooks.example.com/a', secret: 'x'.repeat(16) })).toEqual({});
    expect(channelProblems({ ...draft, url: 'https://user:pw@example.com/' }).url).toMatch(/without a user name/);
  });

  it('lets a PagerDuty channel leave the URL out, and sends only the fields of its type', () => {
    const draft = { ...emptyChannelDraft('pagerduty'), routingKey: ' R0UTING ', secret: 'ignored' };
    expect(channelProblems(draft)).toEqual({});
    expect(channelBody(draft)).toEqual({ type: 'pagerduty', routingKey: 'R0UTING' });
  });

  it('checks e-mail recipients, port, and a password only with STARTTLS', () => {
    const draft = {
      ...emptyChannelDraft('email'),
      host: 'smtp.example.com',
      from: 'triad@example.com',
      to: 'ops@example.com, bad address',
      user: 'triad',
      password: 'pw',
      starttls: false,
      port: '70000',
    };
    const problems = channelProblems(draft);
    expect(problems.to).toBe('bad is not an address of the form name@domain.');
    expect(problems.port).toBe('Enter a port from 1 to 65535.');
    expect(problems.starttls).toMatch(/STARTTLS/);
    const fixed = { ...draft, to: 'ops@example.com, dev@example.com', port: '587', starttls: true };
    expect(channelProblems(fixed)).toEqual({});
    expect(channelBody(fixed)).toMatchObject({ port: 587, to: ['ops@example.com', 'dev@example.com'], user: 'triad' });
    expect(recipients(' a@b.c;d@e.f\n')).toEqual(['a@b.c', 'd@e.f']);
  });

  it('puts an API refusal at its field', () => {
    expect(refusedChannelField('address_refused', 'email')).toBe('host');
    expect(refusedChannelField('address_refused', 'slack')).toBe('url');
    expect(refusedChannelField('not_admin', 'slack')).toBeUndefined();
  });

  it("tells a failed delivery's last error, and nothing for one that went through", () => {
    const attempt = { attempt: 1, startedAt: 0, durationMs: 3, ok: false, statusCode: 500, reply: null, error: null };
    const delivery = { attempts: [attempt] } as unknown as DeliveryWire;
    expect(lastError(delivery)).toBe('HTTP 500');
    const ok = { attempts: [{ ...attempt, ok: true, statusCode: 200 }] } as unknown as DeliveryWire;
    expect(lastError(ok)).toBeUndefined();
  });
});
