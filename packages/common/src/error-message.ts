/**
 * The text of whatever was thrown, for a log line or a problem's `detail`: an `Error`'s message, a
 * thrown string as it is, anything else as JSON (or `String()` where JSON cannot show it).
 * `catch (error)` gives `unknown`; this is the one place that narrows it to words, instead of a
 * cast such as `(error as Error).message` that prints `undefined` for a thrown string.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
