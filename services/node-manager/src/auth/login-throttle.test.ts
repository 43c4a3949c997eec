import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE_POLICY, LoginThrottle } from './login-throttle.js';

describe('LoginThrottle', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('lets the first three failures of a pair through, then doubles the wait with each failure', () => {
    const c = clock();
    const throttle = new LoginThrottle(DEFAULT_LOGIN_THROTTLE_POLICY, c.now);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(throttle.waitMs('admin', '10.0.0.9'));
      throttle.failed('admin', '10.0.0.9');
    }
    expect(waits).toEqual([0, 0, 0, 1_000, 2_000, 4_000]);
    expect(throttle.waitMs('admin', '10.0.0.9')).toBe(8_000);
    c.advance(8_000);
    expect(throttle.waitMs('admin', '10.0.0.9')).toBe(0);
  });

  it('caps the wait of one client at 15 minutes and forgets failures after 15 quiet minutes', () => {
    const c = clock();
    const throttle = new LoginThrottle(DEFAULT_LOGIN_THROTTLE_POLICY, c.now);
    for (let i = 0; i < 40; i++) throttle.failed('admin', '10.0.0.9');
    expect(throttle.waitMs('admin', '10.0.0.9')).toBe(900_000);
    c.advance(900_001);
    throttle.failed('admin', '10.0.0.9');
    expect(throttle.waitMs('admin', '10.0.0.9')).toBe(0);
  });

  it('holds up other clients of a username for at most 30 s, and never a client the user signed in from', () => {
    const c = clock();
    const throttle = new LoginThrottle(DEFAULT_LOGIN_THROTTLE_POLICY, c.now);
    throttle.succeeded('admin', '192.168.1.5');
    for (let i = 0; i < 100; i++) throttle.failed('admin', `10.0.${i}.1`);
    expect(throttle.waitMs('admin', '172.16.0.1')).toBe(30_000);
    expect(throttle.waitMs('admin', '192.168.1.5')).toBe(0);
    expect(throttle.waitMs('bob', '172.16.0.1')).toBe(0);
  });

  it('slows an address that sprays usernames, and a success clears the username and pair only', () => {
    const c = clock();
    const throttle = new LoginThrottle(DEFAULT_LOGIN_THROTTLE_POLICY, c.now);
    for (let i = 0; i < 10; i++) throttle.failed(`user${i}`, '10.0.0.9');
    expect(throttle.waitMs('someone', '10.0.0.9')).toBe(1_000);
    expect(throttle.waitMs('someone', '10.0.0.10')).toBe(0);
    // As the authenticator does: counted before the check, undone by the success.
    throttle.failed('user1', '10.0.0.9');
    throttle.succeeded('user1', '10.0.0.9');
    expect(throttle.waitMs('someone', '10.0.0.9')).toBe(1_000);
    expect(throttle.waitMs('user1', '10.0.0.9')).toBe(0);
  });
});
