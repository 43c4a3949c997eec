/** The roles of the node manager, least to most privileged. */
export const ROLES = ['guest', 'user', 'admin'] as const;

/** A node manager role. */
export type Role = (typeof ROLES)[number];

/** True when `value` is one of `ROLES`. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The rights a user can hold (`change_rights`), in display order. */
export const RIGHTS = ['read', 'write', 'execute'] as const;
export type Right = (typeof RIGHTS)[number];

/** A user as the Admin page lists it. */
export interface AdminUser {
  readonly username: string;
  readonly role: Role | undefined;
  readonly rights: readonly string[];
}

/**
 * The rights after switching `right` on or off, in `RIGHTS` order; undefined when that would
 * leave none (the API needs at least one).
 */
export function toggledRights(rights: readonly string[], right: Right, on: boolean): Right[] | undefined {
  const next = RIGHTS.filter((r) => (r === right ? on : rights.includes(r)));
  return next.length === 0 ? undefined : next;
}

/** The node manager's shortest password (its 400 `password_too_short`). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Checks the add-user form before it is sent, with the API's own limits (username 1 to 64,
 * password 8 to 128 characters, a known role). Returns the first problem as a sentence, or
 * undefined when the form may be sent.
 */
export function newUserProblem(username: string, password: string, role: string): string | undefined {
  if (username.trim() === '') return 'Enter a username.';
  if (username.length > 64) return 'The username is longer than 64 characters.';
  if (password === '') return 'Enter a password.';
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password needs at least ${MIN_PASSWORD_LENGTH} characters (letters and digits).`;
  if (password.length > 128) return 'The password is longer than 128 characters.';
  if (!isRole(role)) return `Unknown role ${role}.`;
  return undefined;
}

/** Users sorted by name, `admin` first (the user that always exists). */
export function sortUsers(users: readonly AdminUser[]): AdminUser[] {
  return [...users].sort((a, b) =>
    a.username === 'admin' ? -1 : b.username === 'admin' ? 1 : a.username.localeCompare(b.username),
  );
}
