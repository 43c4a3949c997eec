import { describe, expect, it } from 'vitest';
import { suggestionEdit } from './suggestion-edit.js';

/** Applies the edit of `suggestion` to the span of `token` in `text`, or says there is none. */
function apply(text: string, token: string, suggestion: string, format: 'json' | 'yaml' = 'json'): string | undefined {
  const start = text.indexOf(token);
  const edit = suggestionEdit(text, { start, end: start + token.length }, suggestion, format);
  return edit === undefined ? undefined : text.slice(0, edit.range.start) + edit.newText + text.slice(edit.range.end);
}

describe('suggestionEdit', () => {
  it.each([
    ['a quoted enum value keeps its quotes', '{"t": "mapp"}', '"mapp"', 'map', '{"t": "map"}'],
    ['a YAML key', 'alais: x', 'alais', 'alias', 'alias: x'],
    ['an identifier in an expression', '"datapoints.reachabel.value"', 'reachabel', 'reachable', undefined],
    ['a JSON literal suggestion replaces the whole token', '{"v": 1}', '1', '"1"', '{"v": "1"}'],
    ['an unknown discovery variable', '"/{ICMP_IpAddress}/"', '"/{ICMP_IpAddress}/"', '/{ICMP_IPAddress}/', undefined],
    ['a variable without slashes', 'origin: {ICMP_IPAddress}', '{ICMP_IPAddress}', '/{ICMP_IPAddress}/', undefined],
  ])('replaces %s', (_name, text, token, suggestion, expected) => {
    const wanted =
      expected ??
      (suggestion.startsWith('/{') ? text.replace(/\/?\{\w+\}\/?/, suggestion) : text.replace(token, suggestion));
    expect(apply(text, token, suggestion)).toBe(wanted);
  });

  it('offers nothing for a suggestion that describes an action', () => {
    expect(apply('toBest: false', 'false', 'remove toBest', 'yaml')).toBeUndefined();
    expect(apply('toBest: false', 'false', 'toBest: true', 'yaml')).toBeUndefined();
  });
});
