import { describe, expect, it } from 'vitest';
import { operatorMessage } from './operator-messages.js';

describe("the node manager's refusals in people's words", () => {
  it('turns each code the issue names into a sentence that says what to do', () => {
    expect(operatorMessage({ error: 'invalid_username' })).toMatch(
      /^A username is 1 to 64 letters and digits.*try again/,
    );
    expect(operatorMessage({ error: 'user_exists' })).toBe(
      'A user with this name exists already. Choose another username.',
    );
    expect(operatorMessage({ error: 'forbidden' })).toMatch(/^Your user may not do this.*Ask an admin/);
  });

  it('never shows a bare code, even for a code it does not know', () => {
    expect(operatorMessage({ error: 'brand_new_reason' })).toBe('The node manager refused this (brand new reason).');
  });

  it('has nothing to say about a body without a reason', () => {
    expect(operatorMessage('plain text')).toBeUndefined();
    expect(operatorMessage({ detail: 'x' })).toBeUndefined();
  });
});
