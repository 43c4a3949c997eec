/** Advice for js-yaml's error reasons, matched by prefix; the reason itself is always quoted. */
const HINTS: readonly (readonly [string, string])[] = [
  [
    'bad indentation of a mapping entry',
    'keys of one mapping must start in the same column: check the indentation of this line and the one before',
  ],
  [
    'bad indentation of a sequence entry',
    "the '- ' entries of one sequence must start in the same column: check the indentation",
  ],
  ['tab characters must not be used in indentation', 'indent with spaces (YAML does not allow tabs there)'],
  [
    'end of the stream or a document separator is expected',
    "this line does not fit the structure above it: check its indentation, or a missing ':' or '- '",
  ],
  [
    'can not read a block mapping entry; a multiline key may not be an implicit key',
    "a key must fit on one line: check for a missing ':' on the line before, or text indented like a key",
  ],
  ['can not read an implicit mapping pair; a colon is missed', "add the ':' after the key"],
  [
    'a whitespace character is expected after the key-value separator',
    "put a space after the ':' (or quote the text if the ':' belongs to it)",
  ],
  [
    'unexpected end of the stream within a double quoted scalar',
    'a double-quoted string is not closed: add the closing "',
  ],
  [
    'unexpected end of the stream within a single quoted scalar',
    "a single-quoted string is not closed: add the closing '",
  ],
  ['unexpected end of the document within', 'a quoted string runs into a document marker: close the quote'],
  ['unexpected end of the stream within a flow collection', "a '[' or '{' is not closed: add the closing bracket"],
  ['missed comma between flow collection entries', "separate the entries of a [...] or {...} with ','"],
  ['expected the node content, but found', "remove the extra ',' or write the missing entry"],
  ['unidentified alias', 'define the anchor (&name) before the alias (*name) that uses it'],
  [
    'null byte is not allowed in input',
    'the file contains a NUL character: it may be binary, or saved as UTF-16 instead of UTF-8',
  ],
  [
    'the stream contains non-printable characters',
    'remove the control character (or write it as an escape in a double-quoted string)',
  ],
  ['expected valid JSON character', 'a quoted string holds a control character: write it as an escape, e.g. \\t'],
  [
    'unknown escape sequence',
    'in double quotes a backslash starts an escape: write \\\\ for a backslash, or use single quotes',
  ],
  ['expected hexadecimal character', 'a \\x, \\u or \\U escape needs 2, 4 or 8 hexadecimal digits'],
  ['duplication of an anchor property', 'give each node at most one &anchor'],
  ['alias node should not have any properties', 'an alias (*name) cannot carry an &anchor or a !tag'],
  ['incomplete explicit mapping pair', "a ':' at the start of an entry needs a '? key' before it"],
  ['directives end mark is expected', "a %YAML or %TAG directive must be followed by a '---' line"],
];

/** `YAML syntax error at 4:3: bad indentation of a mapping entry; keys of one mapping must ...` */
export function yamlSyntaxMessage(reason: string, place: string): string {
  const hint = HINTS.find(([prefix]) => reason.startsWith(prefix))?.[1] ?? 'fix the YAML syntax at this place';
  return `YAML syntax error at ${place}: ${reason}; ${hint}.`;
}
