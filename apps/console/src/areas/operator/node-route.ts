/** The node id of a node page's path (`/nodes/<id>`, query ignored); undefined for any other path. */
export function nodePageId(path: string): string | undefined {
  const match = /^\/nodes\/([^/?#]+)\/?(?:[?#]|$)/.exec(path);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}
