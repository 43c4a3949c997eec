/**
 * Whether `href` points at a name reserved for examples and tests (RFC 2606, RFC 6761): the TLDs
 * `.example`, `.invalid`, `.test`, `.localhost` and `example.com`, `example.net`, `example.org`
 * with their subdomains. No real file lives there (the demo catalog's images are on
 * `images.example.com`), so the page does not ask for it: the browser would log every failed
 * load as a console error. A malformed absolute href counts as reserved too; a relative one never.
 */
export function isReservedHost(href: string): boolean {
  // A relative href is the serving service's own file.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) return false;
  let host: string;
  try {
    host = new URL(href).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (/\.(?:example|invalid|test|localhost)$/.test(host) || ['example', 'invalid', 'test'].includes(host)) return true;
  return /(?:^|\.)example\.(?:com|net|org)$/.test(host);
}
