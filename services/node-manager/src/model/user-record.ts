import type { Right, Role } from './roles.js';

/** A stored user as the service sees it. */
export interface UserRecord {
  readonly username: string;
  readonly passwordHash: string;
  readonly role: Role;
  readonly rights: readonly Right[];
  /** Tags that filter what the user sees, or `'all'` (no filtering). */
  readonly tags: 'all' | readonly string[];
}
