/**
 * The templateVersion of a template's text, found and replaced without parsing (the editor's text
 * may be broken): the first `templateVersion` key at the root indentation of YAML, or in JSON.
 */

const VERSION = /^(\s*"templateVersion"\s*:\s*"|templateVersion\s*:\s*["']?)([^"'\s,}#]+)/m;

/** The version and its range in `text`, or undefined when the text names none. */
export function findTemplateVersion(text: string): { version: string; from: number; to: number } | undefined {
  const match = VERSION.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const from = match.index + match[1].length;
  return { version: match[2], from, to: from + match[2].length };
}

/** The next patch version: `1.4.2` → `1.4.3`, `2.0.0-rc.1` → `2.0.0`; otherwise the text plus `.1`. */
export function nextPatchVersion(version: string): string {
  const match = /^(\d+)\.(\d+)\.(\d+)(-[^+]*)?(\+.*)?$/.exec(version);
  if (!match) return `${version}.1`;
  const [, major, minor, patch, pre] = match;
  return pre ? `${major}.${minor}.${patch}` : `${major}.${minor}.${Number(patch) + 1}`;
}
