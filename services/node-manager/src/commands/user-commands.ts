import { randomBytes } from 'node:crypto';
import { CredentialCache } from '../auth/credential-cache.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import { RecentUsers } from '../auth/recent-users.js';
import {
  ADMIN_USERNAME,
  MIN_PASSWORD_LENGTH,
  PASSWORD_PATTERN,
  USERNAME_PATTERN,
  defaultRights,
  isRight,
  isRole,
  type Role,
} from '../model/roles.js';
import { nmError } from '../errors.js';
import type { UserRecord } from '../model/user-record.js';
import { UserExistsError, type UserRepository } from '../repositories/user-repository.js';

/** What `ensureAdmin` did on start-up. */
export interface AdminBootstrap {
  readonly created: boolean;
  /** Set only when the password was generated here; show it once. */
  readonly generatedPassword?: string;
}

/** Where a user change was made: here, or in another instance (told through the change bus). */
export type UserChangeOrigin = 'local' | 'remote';

/** Told the name of a user whose stored record changed or who was deleted. */
export type UserChangeListener = (username: string, origin: UserChangeOrigin) => void;

/**
 * Use cases on users: every check (format, existence, last admin) runs before anything is
 * written, and each failure is a catalogue error (`{error: reason}` on the wire). Every change
 * (password, role, rights, tags, deletion) is told to the `onChange` listeners, which end the
 * user's WebSocket passes and live sockets and tell the other instances.
 */
export class UserCommands {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly credentials: CredentialCache;
  /** Users recently read for authentication; every change here forgets the user's entry. */
  readonly recentUsers: RecentUsers;
  readonly #newUserTags: 'all' | readonly string[];
  readonly #listeners = new Set<UserChangeListener>();

  constructor(
    users: UserRepository,
    hasher: PasswordHasher,
    newUserTags: 'all' | readonly string[],
    credentials = new CredentialCache(),
    recentUsers = new RecentUsers(0),
  ) {
    this.users = users;
    this.hasher = hasher;
    this.credentials = credentials;
    this.recentUsers = recentUsers;
    this.#newUserTags = newUserTags;
  }

  /** Creates `admin` when the store has no users with that name; the password is given or generated. */
  async ensureAdmin(password?: string): Promise<AdminBootstrap> {
    if (await this.users.find(ADMIN_USERNAME)) return { created: false };
    const chosen = password === undefined ? randomBytes(12).toString('hex') : checkPassword(password);
    try {
      await this.users.insert({
        username: ADMIN_USERNAME,
        passwordHash: await this.hasher.hash(chosen),
        role: 'admin',
        rights: defaultRights('admin'),
        tags: this.#newUserTags,
      });
    } catch (error) {
      // Another process created it between our read and insert: theirs stands.
      if (error instanceof UserExistsError) return { created: false };
      throw error;
    }
    return password === undefined ? { created: true, generatedPassword: chosen } : { created: true };
  }

  /** Adds a user with role `user` (or `role`), default rights and the default tags. */
  async addUser(username: unknown, password: unknown, role: Role = 'user'): Promise<void> {
    const name = checkUsername(username);
    const secret = checkPassword(password);
    try {
      await this.users.insert({
        username: name,
        passwordHash: await this.hasher.hash(secret),
        role,
        rights: defaultRights(role),
        tags: this.#newUserTags,
      });
    } catch (error) {
      if (error instanceof UserExistsError) throw nmError('NM_ERR_USER_EXISTS', name);
      throw error;
    }
  }

  async changePassword(username: string, password: unknown): Promise<void> {
    const secret = checkPassword(password);
    const hash = await this.hasher.hash(secret);
    if (!(await this.users.update(username, { passwordHash: hash }))) throw nmError('NM_ERR_USER_NOT_FOUND', username);
    this.#changed(username);
  }

  /** Sets the role; rights follow the role's defaults. Refuses to demote the last admin. */
  async changeRole(username: unknown, role: unknown): Promise<void> {
    const name = checkUsername(username);
    if (!isRole(role)) throw nmError('NM_ERR_INVALID_ROLE', String(role));
    const user = await this.#existing(name);
    if (user.role === 'admin' && role !== 'admin' && (await this.users.countAdmins()) <= 1)
      throw nmError('NM_ERR_LAST_ADMIN', name);
    await this.users.update(name, { role, rights: defaultRights(role) });
    this.#changed(name);
  }

  /** Sets the rights: a non-empty list of distinct known rights. */
  async changeRights(username: unknown, rights: unknown): Promise<void> {
    const name = checkUsername(username);
    if (
      !Array.isArray(rights) ||
      rights.length === 0 ||
      !rights.every(isRight) ||
      new Set(rights).size !== rights.length
    ) {
      throw nmError('NM_ERR_INVALID_RIGHTS');
    }
    await this.#existing(name);
    await this.users.update(name, { rights });
    this.#changed(name);
  }

  /** Deletes a user; pages go with them (`withPages`) or to `admin`. The last admin stays. */
  async deleteUser(username: unknown, withPages: boolean): Promise<void> {
    const name = checkUsername(username);
    const user = await this.#existing(name);
    if (name === ADMIN_USERNAME || (user.role === 'admin' && (await this.users.countAdmins()) <= 1))
      throw nmError('NM_ERR_LAST_ADMIN', name);
    await this.users.delete(name, withPages, ADMIN_USERNAME);
    this.#changed(name);
  }

  /**
   * Sets the tags filtering a user's view: a list of tags or `'all'`. Returns `tags` once checked
   * (the list as sent; the user keeps each tag once).
   */
  async setTags(username: unknown, tags: unknown): Promise<'all' | readonly string[]> {
    const name = checkUsername(username);
    if (!isTagSetting(tags)) throw nmError('NM_ERR_INVALID_REQUEST', 'tags must be "all" or a list of tags');
    await this.#existing(name);
    await this.users.update(name, { tags: tags === 'all' ? 'all' : [...new Set(tags)] });
    this.#changed(name);
    return tags;
  }

  /** Calls `listener` with every user changed from now on; returns the function that stops it. */
  onChange(listener: UserChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Another instance changed `username`: forget what is remembered of them and tell the listeners. */
  changedElsewhere(username: string): void {
    this.#changed(username, 'remote');
  }

  /** Drops what is remembered about a user whose stored record just changed, and tells the listeners. */
  #changed(username: string, origin: UserChangeOrigin = 'local'): void {
    this.credentials.forget(username);
    this.recentUsers.forget(username);
    for (const listener of [...this.#listeners]) listener(username, origin);
  }

  async #existing(username: string): Promise<UserRecord> {
    const user = await this.users.find(username);
    if (!user) throw nmError('NM_ERR_USER_NOT_FOUND', username);
    return user;
  }
}

function checkUsername(value: unknown): string {
  if (typeof value !== 'string' || !USERNAME_PATTERN.test(value)) throw nmError('NM_ERR_INVALID_USERNAME');
  return value;
}

/** @throws NM_ERR_INVALID_PASSWORD (not letters and digits, or too long), NM_ERR_PASSWORD_TOO_SHORT */
export function checkPassword(value: unknown): string {
  if (typeof value !== 'string' || !PASSWORD_PATTERN.test(value)) throw nmError('NM_ERR_INVALID_PASSWORD');
  if (value.length < MIN_PASSWORD_LENGTH) throw nmError('NM_ERR_PASSWORD_TOO_SHORT');
  return value;
}

/** Whether `tags` is `'all'` or a list of at most 100 tags of letters, digits, `_` and `-` (1 to 64 each). */
function isTagSetting(tags: unknown): tags is 'all' | string[] {
  return (
    tags === 'all' ||
    (Array.isArray(tags) &&
      tags.every((t) => typeof t === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(t)) &&
      tags.length <= 100)
  );
}
