import { describe, expect, it } from 'vitest';
import { isRole, newUserProblem, sortUsers, toggledRights } from './user-admin.js';

describe('isRole', () => {
  it('accepts the three roles and refuses anything else', () => {
    expect(['guest', 'user', 'admin'].every(isRole)).toBe(true);
    expect(isRole('root')).toBe(false);
    expect(isRole('Admin')).toBe(false);
  });
});

describe('newUserProblem', () => {
  it('passes a complete form', () => {
    expect(newUserProblem('bob', 'secret99', 'guest')).toBeUndefined();
  });
  it('names the first missing or too long field', () => {
    expect(newUserProblem('  ', 'secret99', 'user')).toBe('Enter a username.');
    expect(newUserProblem('b'.repeat(65), 'secret99', 'user')).toBe('The username is longer than 64 characters.');
    expect(newUserProblem('bob', '', 'user')).toBe('Enter a password.');
    expect(newUserProblem('bob', 'secret9', 'user')).toBe(
      'The password needs at least 8 characters (letters and digits).',
    );
    expect(newUserProblem('bob', 'p'.repeat(129), 'user')).toBe('The password is longer than 128 characters.');
    expect(newUserProblem('bob', 'secret99', 'root')).toBe('Unknown role root.');
  });
});

describe('sortUsers', () => {
  it('puts admin first, then the others by name', () => {
    const users = ['carol', 'admin', 'bob'].map((username) => ({ username, role: undefined, rights: [] }));
    expect(sortUsers(users).map((u) => u.username)).toEqual(['admin', 'bob', 'carol']);
  });
});

describe('toggledRights', () => {
  it('adds and removes one right in display order, and refuses to leave none', () => {
    expect(toggledRights(['write'], 'read', true)).toEqual(['read', 'write']);
    expect(toggledRights(['read', 'write', 'execute'], 'write', false)).toEqual(['read', 'execute']);
    expect(toggledRights(['read'], 'read', false)).toBeUndefined();
  });
});
