/**
 * Runs `action` and returns what it threw, for tests that check an error's fields with typed
 * matchers: `expect(thrownBy(() => parse(bytes))).toMatchObject({ code: 'X_ERR_Y', offset: 4 })`.
 *
 * @throws Error when `action` returns instead of throwing (the test then fails saying so).
 */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw, but it returned');
}
