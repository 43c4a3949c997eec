import type { UserRecord } from '../model/user-record.js';
import { sessionStamp } from './session-stamp.js';

/** One open live socket, as `LiveSessions` knows it. */
export interface LiveSession {
  readonly username: string;
  /** `sessionStamp` of the user when the socket authenticated. */
  readonly stamp: string;
  /** Closes the socket, saying why. */
  end(reason: string): void;
}

/** Why sessions end: the user's stored record changed or the user was deleted. */
export const SESSION_ENDED_REASON = 'credentials changed';

/**
 * The open live sockets of each user, so that they end when their reason does: at once when the
 * user changes through this instance (`end`) or another instance (the change bus), and at the
 * next `recheck` when another process (the `triad users` CLI) changed the stored user.
 */
export class LiveSessions {
  readonly #byUser = new Map<string, Set<LiveSession>>();

  /** Registers an open socket; returns the function that forgets it (call it when it closes). */
  open(session: LiveSession): () => void {
    let sessions = this.#byUser.get(session.username);
    if (!sessions) this.#byUser.set(session.username, (sessions = new Set()));
    sessions.add(session);
    return () => {
      sessions.delete(session);
      if (sessions.size === 0 && this.#byUser.get(session.username) === sessions) this.#byUser.delete(session.username);
    };
  }

  /** Open sockets, all users together. */
  get size(): number {
    let count = 0;
    for (const sessions of this.#byUser.values()) count += sessions.size;
    return count;
  }

  /** Ends every open socket of `username`; returns how many. */
  end(username: string, reason = SESSION_ENDED_REASON): number {
    const sessions = this.#byUser.get(username);
    if (!sessions) return 0;
    this.#byUser.delete(username);
    const ending = [...sessions];
    for (const session of ending) session.end(reason);
    return ending.length;
  }

  /**
   * Reads each user with open sockets through `load` and ends the sockets whose user is gone or
   * has another stamp now. Returns how many ended.
   */
  async recheck(load: (username: string) => Promise<UserRecord | undefined>): Promise<number> {
    let ended = 0;
    for (const username of [...this.#byUser.keys()]) {
      const user = await load(username);
      const stamp = user ? sessionStamp(user) : undefined;
      for (const session of [...(this.#byUser.get(username) ?? [])]) {
        if (session.stamp === stamp) continue;
        session.end(SESSION_ENDED_REASON);
        ended += 1;
      }
    }
    return ended;
  }
}
