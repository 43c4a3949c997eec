import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_USERNAME, defaultRights, type Right, type Role } from '../model/roles.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { CredentialCache } from './credential-cache.js';
import { LoginThrottle, type ThrottleOutcome } from './login-throttle.js';
import { PasswordHashBusyError, type PasswordHasher } from './password-hasher.js';
import type { RecentUsers } from './recent-users.js';

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

/** What a sign-in attempt came to: the user, wrong or missing credentials, or a wait imposed first. */
export type SignIn =
  | { readonly user: CurrentUser }
  | { readonly refused: 'unauthorized' }
  | { readonly refused: 'throttled'; readonly retryAfterMs: number }
  | { readonly refused: 'busy'; readonly retryAfterMs: number };

/**
 * The user parts a sign-in reads (`UserCommands` has them): the stored users, the password
 * hasher, the credential cache and the recently read users.
 */
export interface UserCredentials {
  readonly users: Pick<UserRepository, 'find'>;
  readonly hasher: PasswordHasher;
  readonly credentials: CredentialCache;
  readonly recentUsers: RecentUsers;
}

/** How long a client refused because the password checks are all taken is asked to wait. */
const BUSY_RETRY_MS = 1000;

/**
 * Resolves `Authorization: Basic` credentials to a user. With authentication off every caller is
 * the `admin` user filtered by the configured default tags. A wrong password costs one scrypt run
 * whether or not the user exists (unknown users are checked against a dummy hash), and repeated
 * failures are slowed down by `throttle` (see `LoginThrottle`).
 */
export class Authenticator {
  readonly #userParts: UserCredentials;
  readonly enabled: boolean;
  readonly #defaultTags: 'all' | readonly string[];
  readonly #throttle: LoginThrottle;
  #share: ((outcome: ThrottleOutcome) => void) | undefined;
  #dummyHash: Promise<string> | undefined;

  constructor(
    userParts: UserCredentials,
    enabled: boolean,
    defaultTags: 'all' | readonly string[],
    throttle = new LoginThrottle(),
  ) {
    this.#userParts = userParts;
    this.enabled = enabled;
    this.#defaultTags = defaultTags;
    this.#throttle = throttle;
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

  /**
   * Signs in the caller at `address` with the Basic `header`. A client that must wait is refused
   * before its password is checked; a missing or malformed header is `unauthorized` and not
   * counted as a failure.
   */
  async authenticate(header: string | undefined, address: string): Promise<SignIn> {
    const credentials = parseBasic(header);
    if (!credentials) return { refused: 'unauthorized' };
    const { username, password } = credentials;
    // The throttle counts digests: what it shares with other instances names no one.
    const name = throttleKey(username);
    const from = throttleKey(address);
    const waitMs = this.#throttle.waitMs(name, from);
    if (waitMs > 0) return { refused: 'throttled', retryAfterMs: waitMs };
    const hadFailures = this.#throttle.hasFailures(name, from);
    // Counted before the check, so concurrent guesses see each other; a password that already
    // passed scrypt is no guess, so a burst of a client's requests is not throttled by itself.
    const known = this.#userParts.recentUsers.peek(username);
    const verified = known !== undefined && this.#userParts.credentials.matches(username, password, known.passwordHash);
    if (!verified) this.#throttle.failed(name, from);
    let user: CurrentUser | undefined;
    try {
      user = await this.verify(username, password);
    } catch (error) {
      // Nothing was checked: the guess counted above stays counted, nothing is shared.
      if (error instanceof PasswordHashBusyError) return { refused: 'busy', retryAfterMs: BUSY_RETRY_MS };
      throw error;
    }
    if (!user) {
      if (verified) this.#throttle.failed(name, from);
      this.#share?.({ kind: 'failed', username: name, address: from });
      return { refused: 'unauthorized' };
    }
    this.#throttle.succeeded(name, from);
    if (hadFailures) this.#share?.({ kind: 'cleared', username: name, address: from });
    return { user };
  }

  /**
   * Sends each counted outcome to `share` (the other instances, through the change bus), so that
   * guesses spread over instances behind a load balancer are throttled as if they met one.
   * Returns the function that stops sharing.
   */
  shareThrottle(share: (outcome: ThrottleOutcome) => void): () => void {
    this.#share = share;
    return () => {
      if (this.#share === share) this.#share = undefined;
    };
  }

  /** How long, ms, the client at `address` must wait before signing in as `username` (0: it may try now). */
  waitMs(username: string, address: string): number {
    return this.#throttle.waitMs(throttleKey(username), throttleKey(address));
  }

  /** Counts an outcome another instance shared. */
  applyRemoteThrottle(outcome: ThrottleOutcome): void {
    this.#throttle.applyRemote(outcome);
  }

  /**
   * The user when `password` is theirs; scrypt runs once, then the credential cache answers. The
   * user record comes from `recentUsers` (re-read at most every `userRecheckMs`). An unknown user
   * still costs a scrypt run, against a dummy hash, so that timing does not tell which names exist.
   */
  async verify(username: string, password: string): Promise<CurrentUser | undefined> {
    const user = await this.#userParts.recentUsers.get(username, (name) => this.#userParts.users.find(name));
    if (!user) {
      await this.#userParts.hasher.verify(password, await this.#dummy());
      return undefined;
    }
    const cache = this.#userParts.credentials;
    if (!cache.matches(username, password, user.passwordHash)) {
      if (!(await this.#userParts.hasher.verify(password, user.passwordHash))) return undefined;
      cache.remember(username, password, user.passwordHash);
    }
    return { username: user.username, role: user.role, rights: user.rights, tags: user.tags, authenticated: true };
  }

  /** A hash of a random password with the configured cost, made once. */
  #dummy(): Promise<string> {
    this.#dummyHash ??= this.#userParts.hasher.hash(randomBytes(16).toString('hex'));
    return this.#dummyHash;
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

/** 128 bits of SHA-256, base64url: the throttle's key for a username or a client address. */
function throttleKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
