/**
 * The string `code` a thrown value carries (a Node.js system error's `ENOENT`, a driver's or a
 * database's code), or undefined when it has none. Narrows `unknown` instead of a cast such as
 * `(error as NodeJS.ErrnoException).code`.
 */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
