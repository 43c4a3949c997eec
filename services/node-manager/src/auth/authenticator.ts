import { ADMIN_USERNAME, defaultRights, type Right, type Role } from './roles.js';
import type { UserCommands } from '../commands/user-commands.js';

/** Who is calling, as every route sees it. */
export interface CurrentUser {
  readonly username: string;
  readonly role: Role;
  readonly rights: readonly Right[];
  /** The tags filtering this user's view, or `'all'`. */
  readonly tags: 'all' | readonly string[];
  /** False when authentication is off (everyone acts as admin then). */
  readonly authenticated: boolean;
}

/**
 * Resolves `Authorization: Basic` credentials to a user. With authentication off every caller is
 * the `admin` user filtered by the configured default tags.
 */
export class Authenticator {
  readonly #commands: UserCommands;
  readonly enabled: boolean;
  readonly #defaultTags: 'all' | readonly string[];

  constructor(commands: UserCommands, enabled: boolean, defaultTags: 'all' | readonly string[]) {
    this.#commands = commands;
    this.enabled = enabled;
    this.#defaultTags = defaultTags;
  }

  /** The anonymous caller when authentication is off. */
  get anonymous(): CurrentUser {
    return {
      username: ADMIN_USERNAME,
      role: 'admin',
      rights: defaultRights('admin'),
      tags: this.#defaultTags,
      authenticated: false,
    };
  }

  /** The user named by the header, or undefined when the header is missing, malformed or wrong. */
  async authenticate(header: string | undefined): Promise<CurrentUser | undefined> {
    const credentials = parseBasic(header);
    if (!credentials) return undefined;
    return this.verify(credentials.username, credentials.password);
  }

  /**
   * The user when `password` is theirs; scrypt runs once, then the credential cache answers. The
   * user record comes from `recentUsers` (re-read at most every `userRecheckMs`).
   */
  async verify(username: string, password: string): Promise<CurrentUser | undefined> {
    const user = await this.#commands.recentUsers.get(username, (name) => this.#commands.users.find(name));
    if (!user) return undefined;
    const cache = this.#commands.credentials;
    if (!cache.matches(username, password, user.passwordHash)) {
      if (!(await this.#commands.hasher.verify(password, user.passwordHash))) return undefined;
      cache.remember(username, password, user.passwordHash);
    }
    return { username: user.username, role: user.role, rights: user.rights, tags: user.tags, authenticated: true };
  }
}

/** Splits a Basic header into username and password; undefined when it is not one. */
export function parseBasic(header: string | undefined): { username: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
