/**
 * Longest DOCTYPE the reader holds, internal subset included, in characters (`MAX_DOCTYPE_CHARS`,
 * 1 MiB): BMEcat 1.2 files declare their `UDX` extensions there, a few kilobytes. A longer one
 * refuses the file.
 */
export const MAX_DOCTYPE_CHARS = 1_048_576;

/** Why entities refuse a file, and what to do instead. */
export const NO_ENTITIES =
  'Triad does not expand entities, for safety (an entity can make a small file huge or read other files), ' +
  'so text that uses one cannot be imported as the file means it';

/** What is wrong in a DOCTYPE: `at` is where in the text it was found. */
export class DoctypeError extends Error {
  readonly at: number;
  constructor(message: string, at: number) {
    super(message);
    this.name = 'DoctypeError';
    this.at = at;
  }
}

/**
 * Reads the DOCTYPE that starts at `lt` in `text` (`<!DOCTYPE`), with its internal subset, if
 * any: the subset may hold element, attribute list and notation declarations (BMEcat 1.2 files
 * declare their `UDX` extensions so), a parameter entity whose value is a content model
 * (`USERDEFINES`, the same files' hook for them), comments and processing instructions; quoted literals
 * (attribute defaults, system ids) may hold `>`, `]` or `<!ENTITY` as text. Everything is
 * skipped: Triad validates against no DTD.
 *
 * Returns the index after the DOCTYPE's `>`, or -1 when `text` ends before it.
 *
 * @throws DoctypeError for any other entity declaration, a parameter entity reference (`%name;`), a
 *   conditional section or anything else the subset may not hold.
 */
export function doctypeEnd(text: string, lt: number): number {
  let i = lt + '<!DOCTYPE'.length;
  // The name and external id, up to `[` or `>`.
  for (;;) {
    if (i >= text.length) return -1;
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else if (c === '>') return i + 1;
    else if (c === '[') break;
    else i += 1;
  }
  i += 1;
  // The internal subset, up to `]`.
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
    if (i >= text.length) return -1;
    if (text[i] === ']') {
      i += 1;
      while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
      if (i >= text.length) return -1;
      if (text[i] !== '>') throw new DoctypeError('the DOCTYPE does not end with "]>" after its internal subset', i);
      return i + 1;
    }
    const rest = text.slice(i, i + 11);
    // A declaration cut by the end of the text: wait for the rest to tell which one it is.
    if (rest.length < 11 && SUBSET_MARKUP.some((m) => m.startsWith(rest) && m !== rest)) return -1;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) return -1;
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return -1;
      i = end + 2;
    } else if (text[i] === '%') {
      const end = /^%[^\s;%<>]*;?/.exec(text.slice(i, i + 200))?.[0] ?? '%';
      if (i + end.length >= text.length) return -1;
      throw new DoctypeError(
        `the DOCTYPE's internal subset refers to the parameter entity ${end}: ${NO_ENTITIES}; ` +
          'remove the reference (the declarations it would bring in are not needed to import the catalog)',
        i,
      );
    } else if (text.startsWith('<!ENTITY', i)) {
      if (text.indexOf('>', i) === -1) return -1;
      const model = CONTENT_MODEL_ENTITY.exec(text.slice(i, i + MAX_CONTENT_MODEL_ENTITY));
      if (model) {
        // BMEcat 1.2's way to declare UDX elements: never referenced here, never expanded.
        i += model[0].length;
        continue;
      }
      throw new DoctypeError(
        `the DOCTYPE declares an entity (${text.slice(i, i + 60).split('>')[0]}...>): ${NO_ENTITIES}; ` +
          'remove the declaration and write the characters themselves or character references (&#228; for ä)',
        i,
      );
    } else if (text.startsWith('<![', i)) {
      throw new DoctypeError(
        'the DOCTYPE\'s internal subset holds a conditional section ("<![INCLUDE[" or "<![IGNORE["), which XML ' +
          'allows only in external DTD files: remove it',
        i,
      );
    } else if (/^<!(ELEMENT|ATTLIST|NOTATION)\s/.test(text.slice(i, i + 11))) {
      const end = declarationEnd(text, i + 3);
      if (end === -1) return -1;
      i = end;
    } else if (text.length - i < 20 && !text.includes('\n', i)) {
      return -1;
    } else {
      throw new DoctypeError(
        `the DOCTYPE's internal subset holds "${text.slice(i, i + 20).split('\n')[0]}", which is none of ` +
          '<!ELEMENT, <!ATTLIST, <!NOTATION, a comment or a processing instruction: remove it, or the whole "[...]"',
        i,
      );
    }
  }
}

/**
 * A parameter entity whose value is a content model and nothing else, as BMEcat 1.2 files declare
 * their extensions (`<!ENTITY % USERDEFINES "(UDX.A?,UDX.B*)">`, the DTD's hook for
 * `USER_DEFINED_EXTENSIONS`). It can only be referenced inside a DTD, which Triad never reads, and
 * its value names elements only (no markup, no entity reference, no external id): skipping it
 * expands nothing. Any other entity declaration refuses the file.
 */
const CONTENT_MODEL_ENTITY = /^<!ENTITY\s+%\s+[A-Za-z_][\w.:-]*\s+(?:"[\w.:#()|,?*+\s-]*"|'[\w.:#()|,?*+\s-]*')\s*>/;
/** Longest such declaration looked at, in characters (a UDX list of a few hundred elements). */
const MAX_CONTENT_MODEL_ENTITY = 65_536;

/** Index after the `>` that ends the declaration from `from`, quoted literals skipped; -1 when not in `text`. */
function declarationEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '>') return i + 1;
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close;
    }
  }
  return -1;
}

/** How the markup a subset may hold (or is refused for) starts. */
const SUBSET_MARKUP = ['<!--', '<?', '<!ELEMENT ', '<!ATTLIST ', '<!NOTATION ', '<!ENTITY', '<!['];

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}
