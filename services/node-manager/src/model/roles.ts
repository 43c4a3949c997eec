/** Roles of the spec, least to most powerful. */
export const ROLES = ['guest', 'user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Rights of the spec. */
export const RIGHTS = ['read', 'write', 'execute'] as const;
export type Right = (typeof RIGHTS)[number];

/** Usernames and passwords: letters and digits (spec), with a length bound of ours. */
export const USERNAME_PATTERN = /^[A-Za-z0-9]{1,64}$/;
export const PASSWORD_PATTERN = /^[A-Za-z0-9]{1,128}$/;

/**
 * Shortest password anyone may set: through the API (`add_user`, `change_password`), the
 * `triad users` CLI and `TRIAD_ADMIN_PASSWORD` alike. Shorter ones answer `password_too_short`.
 */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password (bytes and characters: letters and digits only). */
export const MAX_PASSWORD_LENGTH = 128;

/** Rights a user gets with a role when none are given: admin all, user read+write, guest read. */
export function defaultRights(role: Role): Right[] {
  if (role === 'admin') return ['read', 'write', 'execute'];
  if (role === 'user') return ['read', 'write'];
  return ['read'];
}

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

export function isRight(value: unknown): value is Right {
  return RIGHTS.some((right) => right === value);
}

/** The name every fresh database gets as its first admin. */
export const ADMIN_USERNAME = 'admin';
