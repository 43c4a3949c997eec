/**
 * What an area keeps for the browser session (`sessionStorage`: this tab, until it closes), so that
 * following the top bar to another service's console and back, or a reload, keeps the person
 * signed in. Never `localStorage` or a cookie: nothing outlives the session. Each service has its
 * own origin, so each keeps its own; a key is read only by the area that wrote it. Storage that
 * throws (disabled, private mode, quota) reads as empty: the person signs in again.
 */
export interface SessionKeep<T> {
  read(): T | undefined;
  write(value: T): void;
  clear(): void;
}

/** The session value under `triad.<key>`, JSON; `check` refuses a stored value of another shape. */
export function sessionKeep<T>(key: string, check: (value: unknown) => value is T): SessionKeep<T> {
  const name = `triad.${key}`;
  return {
    read() {
      try {
        const text = sessionStorage.getItem(name);
        if (text === null) return undefined;
        const value: unknown = JSON.parse(text);
        return check(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
    write(value) {
      try {
        sessionStorage.setItem(name, JSON.stringify(value));
      } catch {
        // Not kept: the next page load asks again.
      }
    },
    clear() {
      try {
        sessionStorage.removeItem(name);
      } catch {
        // Nothing kept.
      }
    },
  };
}

/** A check for `sessionKeep`: a non-empty string. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
