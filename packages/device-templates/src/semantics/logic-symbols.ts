/**
 * A light reading of a `logic` string (`evalID1 & evalID2`): which symbols it refers to.
 *
 * Kept on its own so the real expression language can replace it: identifiers are read as
 * symbol references, except keywords, words inside string literals and property names after a
 * dot. Declared symbols that are not identifiers (`link-down`) are matched as plain substrings.
 * The result must not be modified (it may be shared through a cache).
 */
export function referencedSymbols(logic: string, declared: readonly string[]): readonly string[] {
  // With identifier-only symbols the answer depends on the logic alone, which repeats a lot.
  const cacheable = declared.every((symbol) => IDENTIFIER_ONLY.test(symbol));
  if (cacheable) {
    const cached = cache.get(logic);
    if (cached !== undefined) return cached;
  }
  const found = new Set<string>();
  let text = logic;
  if (!cacheable) {
    for (const symbol of declared) {
      if (IDENTIFIER_ONLY.test(symbol) || !text.includes(symbol)) continue;
      found.add(symbol);
      text = text.split(symbol).join(' ');
    }
  }
  if (text.includes("'") || text.includes('"')) text = text.replace(STRING_LITERAL, ' ');
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if ((match.index > 0 && text[match.index - 1] === '.') || KEYWORDS.has(word.toLowerCase())) continue;
    found.add(word);
  }
  const result = Object.freeze([...found]);
  if (cacheable) {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(logic, result);
  }
  return result;
}

const IDENTIFIER_ONLY = /^[A-Za-z_$][\w$]*$/;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const STRING_LITERAL = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g;
const KEYWORDS: ReadonlySet<string> = new Set(['true', 'false', 'null', 'undefined', 'and', 'or', 'not', 'xor']);
const cache = new Map<string, readonly string[]>();
const MAX_CACHED = 4096;
