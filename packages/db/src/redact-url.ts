const HIDDEN = '***';
const SECRET_PARAMS = /^(password|pass|pwd|secret|token|sslpassword|sslkey)$/i;

/**
 * Returns the URL with its password (and password-like query parameters) replaced by `***`,
 * safe to log. Text that is not a URL is returned with any `user:password@` part hidden.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/(\/\/[^/@:\s]*:)[^/@\s]*@/, `$1${HIDDEN}@`);
  }
  if (parsed.password !== '') parsed.password = HIDDEN;
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(key)) parsed.searchParams.set(key, HIDDEN);
  }
  // URL encodes the asterisks in userinfo; show them plainly.
  return parsed.toString().replace(/%2A%2A%2A/g, HIDDEN);
}
