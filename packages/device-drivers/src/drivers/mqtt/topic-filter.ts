/**
 * MQTT topic filters (MQTT 5.0 §4.7): `+` matches one level, `#` (last) any number of levels
 * including none, `$share/<group>/` names a shared subscription. Topics starting with `$` are
 * matched only by filters that start with `$` themselves. Pure functions.
 */

/** Why `filter` is not a valid MQTT topic filter, or undefined when it is. */
export function topicFilterProblem(filter: string): string | undefined {
  if (filter.length === 0) return 'a topic filter must not be empty';
  if (Buffer.byteLength(filter) > 65_535) return 'a topic filter must be at most 65,535 bytes';
  if (filter.includes('\u0000')) return 'a topic filter must not contain the NUL character';
  const levels = withoutShare(filter).split('/');
  for (const [index, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || index !== levels.length - 1))
      return `"#" must be the whole last level of a topic filter (in ${JSON.stringify(filter)})`;
    if (level.includes('+') && level !== '+')
      return `"+" must be a whole level of a topic filter (in ${JSON.stringify(filter)})`;
  }
  return undefined;
}

/** True when `topic` (a topic name, no wildcards) matches the valid topic filter `filter`. */
export function topicMatches(filter: string, topic: string): boolean {
  const pattern = withoutShare(filter);
  if (topic.startsWith('$') !== pattern.startsWith('$')) return false;
  const parts = pattern.split('/');
  const levels = topic.split('/');
  for (const [index, part] of parts.entries()) {
    // `a/#` also matches `a` itself, the parent level.
    if (part === '#') return true;
    if (index >= levels.length || (part !== '+' && part !== levels[index])) return false;
  }
  return parts.length === levels.length;
}

/**
 * The text of the topic level each `+` of `filter` matched in `topic`, in order (for a topic
 * that matches). Used to take a device's origin from the first wildcard level.
 */
export function wildcardLevels(filter: string, topic: string): string[] {
  const parts = withoutShare(filter).split('/');
  const levels = topic.split('/');
  const found: string[] = [];
  for (const [index, part] of parts.entries()) if (part === '+' && index < levels.length) found.push(levels[index]!);
  return found;
}

function withoutShare(filter: string): string {
  if (!filter.startsWith('$share/')) return filter;
  const slash = filter.indexOf('/', '$share/'.length);
  return slash === -1 ? '' : filter.slice(slash + 1);
}
