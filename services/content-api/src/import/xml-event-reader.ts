import { DoctypeError, doctypeEnd, MAX_DOCTYPE_CHARS, NO_ENTITIES } from './xml-doctype.js';

/** One event of the XML stream. Names lose their namespace prefix (`bmecat:ARTICLE` -> `ARTICLE`). */
export type XmlEvent =
  | {
      readonly kind: 'open';
      readonly name: string;
      readonly attributes: Readonly<Record<string, string>>;
      readonly line: number;
      readonly selfClosing: boolean;
    }
  | { readonly kind: 'close'; readonly name: string; readonly line: number }
  | { readonly kind: 'text'; readonly text: string };

/** Malformed XML, with the 1-based line (and, where it is known, column) where it was found. */
export class XmlSyntaxError extends Error {
  readonly line: number;
  /** 1-based column, in characters; given for illegal characters. */
  readonly column: number | undefined;
  /** The message without the line. */
  readonly reason: string;
  constructor(reason: string, line: number, column?: number) {
    super(`line ${line}${column !== undefined ? `, column ${column}` : ''}: ${reason}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/**
 * Longest start tag or end tag the reader holds, in characters (`MAX_MARKUP_CHARS`,
 * 64 KiB); a longer one refuses the file. Comments, processing instructions and CDATA may be
 * longer: they are read as they arrive (CDATA as text), never held whole.
 */
export const MAX_MARKUP_CHARS = 65_536;

/**
 * Text of an element is handed to the handler in parts once this much of it is waiting for its
 * end (characters): a text node is never held whole by the reader, however long it is.
 */
const TEXT_PART_CHARS = 65_536;

/**
 * Characters XML 1.0 does not allow anywhere in a document (its `Char` production): the C0
 * controls other than tab, newline and carriage return, U+FFFE and U+FFFF. (Lone surrogates
 * cannot come out of UTF-8 decoding; as character references they are refused by `decodeEntities`.)
 */
// The C0 controls but tab, newline and carriage return (XML allows the C1 block), by code unit: no
// `u` flag and no negated class, 2.5x quicker on a catalog's text (neither range holds a surrogate).
// eslint-disable-next-line no-control-regex -- matching control characters is this expression's purpose
const ILLEGAL_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

/** Whether XML 1.0 allows the code point in a document (the `Char` production). */
export function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** How a character XML does not allow is described in an error: `U+0000`. */
function codePointName(code: number): string {
  return Number.isSafeInteger(code) && code <= 0x10ffff
    ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    : 'a number beyond Unicode';
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An entity reference other than the five predefined ones: `index` is where it starts in the decoded text. */
export class UndeclaredEntityError extends Error {
  readonly index: number;
  constructor(reference: string, index: number) {
    super(
      `entity reference ${reference} is not one of the five XML entities (&lt; &gt; &amp; &quot; &apos;): ` +
        `${NO_ENTITIES}; write the character itself or a character reference (&#228; for ä)`,
    );
    this.name = 'UndeclaredEntityError';
    this.index = index;
  }
}

/**
 * A character reference to a character XML 1.0 does not allow (`&#0;`, `&#x1;`, `&#xD800;`,
 * `&#xFFFE;`): `index` is where it starts in the decoded text.
 */
export class IllegalCharacterReferenceError extends Error {
  readonly index: number;
  constructor(reference: string, code: number, index: number) {
    super(
      `character reference ${reference} stands for ${codePointName(code)}, which XML 1.0 does not allow in a ` +
        'document: remove it or write the character it should be',
    );
    this.name = 'IllegalCharacterReferenceError';
    this.index = index;
  }
}

/**
 * Replaces the five predefined entities and character references.
 *
 * @throws UndeclaredEntityError for any other entity reference (`&nbsp;`): nothing declares it.
 * @throws IllegalCharacterReferenceError for a reference to a character XML does not allow.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z][\w.-]*);/g, (whole, ref: string, index: number) => {
    if (ref.startsWith('#x')) return xmlCharacter(parseInt(ref.slice(2), 16), whole, index);
    if (ref.startsWith('#')) return xmlCharacter(parseInt(ref.slice(1), 10), whole, index);
    const decoded = ENTITIES[ref];
    if (decoded === undefined) throw new UndeclaredEntityError(whole, index);
    return decoded;
  });
}

function xmlCharacter(code: number, reference: string, index: number): string {
  if (!isXmlCharacter(code)) throw new IllegalCharacterReferenceError(reference, code, index);
  return String.fromCodePoint(code);
}

/**
 * Receives what `XmlEventReader.feed` finds, in document order (text only inside the root
 * element). `open` may return `true` to stop the reader before that tag: it is left unread, at
 * the start of `pending`, and read again by the next `feed`.
 */
export interface XmlHandler {
  open(name: string, attributes: Readonly<Record<string, string>>, line: number, selfClosing: boolean): boolean | void;
  text(text: string): void;
  close(name: string, line: number): void;
  /**
   * `false`: `close` gets `''` for an end tag's name (a handler that keeps its own stack of names saves building the
   * strings).
   */
  readonly closeNames?: boolean;
}

/** The attributes of every tag without any (one object: a handler may test for it). */
export const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** An element open at a point of a document: its local name and the line of its start tag. */
export interface OpenElement {
  readonly name: string;
  readonly line: number;
}

/**
 * Why a document ends with `depth` elements open: each that `known` names (outermost first) with
 * the line it opened on, innermost first, and how many more the reader cannot name.
 */
function notClosed(known: readonly OpenElement[], depth: number): string {
  const named = known.slice(-depth).reverse();
  const list = named.map((e) => `<${e.name}> (opened on line ${e.line})`).join(', ');
  const more = depth - named.length;
  const unnamed = more > 0 ? `${named.length > 0 ? ' and ' : ''}${more} more` : '';
  const what = depth === 1 ? 'an element is' : `${depth} elements are`;
  return (
    `${what} not closed at the end of the file: ${list}${unnamed}; ` +
    'close each with its end tag, or send the whole file (it may have been cut short)'
  );
}

/**
 * A small streaming XML reader for catalog files: feed text chunks of any size with `write`
 * (events as values) or `feed` (calls on a handler, nothing allocated per event), get what the
 * chunk completed; `end` checks nothing is left open. Handles elements, attributes, text, CDATA,
 * comments, processing instructions and a DOCTYPE naming an external DTD (skipped, never fetched)
 * and holding element and attribute declarations (skipped: `xml-doctype.ts`). An `ENTITY`
 * declaration and a reference to an entity other than the five predefined ones are refused with
 * their line: entities are not expanded, and storing them as text would serve something the
 * supplier did not mean. Memory stays bounded by the
 * largest single construct, not by the file. Tags and attributes are read by one forward scan
 * (no regular expressions): the import reads gigabytes with it.
 */
export class XmlEventReader {
  #buffer = '';
  #line: number;
  #depth: number;
  /** Characters between the last newline before the buffer and the buffer's start; undefined: unknown. */
  #column: number | undefined;
  /** Index of the next newline in the buffer being read, -1 when none is left. */
  #newline = -1;
  /** Index of the first `&` of the buffer at or after the last text decoded, -1 when none: most texts have none. */
  #amp = -1;
  #at = 0;
  /** Inside a long comment, processing instruction or CDATA section: its end, and whether its content is text. */
  #skip: { readonly until: string; readonly text: boolean } | undefined;
  /** Names and start lines of the elements open, outermost first, as far as this reader knows them. */
  readonly #openNames: string[];
  /** The thread's element names: the readers of a file's pieces meet the same few dozen. */
  readonly #names = SHARED_NAMES;
  readonly #openLines: number[];

  /**
   * `line` and `depth` (default 1 and 0) say where the text starts, for a reader that takes up a
   * document in the middle (at an element boundary). Its depth may then fall below zero. `column`
   * (default 0: the start of a line) is the characters before the start on its line; `'unknown'`
   * leaves columns on that first line out of errors. `open` names the outermost of the elements
   * open at the start, when known (for `end`'s error).
   */
  constructor(
    start: {
      readonly line?: number;
      readonly depth?: number;
      readonly column?: number | 'unknown';
      readonly open?: readonly OpenElement[];
    } = {},
  ) {
    this.#line = start.line ?? 1;
    this.#depth = start.depth ?? 0;
    this.#column = start.column === 'unknown' ? undefined : (start.column ?? 0);
    this.#openNames = (start.open ?? []).map((e) => e.name);
    this.#openLines = (start.open ?? []).map((e) => e.line);
  }

  /** The elements open, outermost first, as far as this reader knows them (those opened in what it read). */
  get openElements(): OpenElement[] {
    return this.#openNames.map((name, i) => ({ name, line: this.#openLines[i] ?? 0 }));
  }

  /** The line reached: of the construct being reported during a handler call. */
  get line(): number {
    return this.#line;
  }

  /** Elements open (start tags read minus end tags read), counted from the start depth. */
  get depth(): number {
    return this.#depth;
  }

  /**
   * Inside a comment, processing instruction or CDATA section longer than `MAX_MARKUP_CHARS`,
   * which is read on as it arrives: `at` was where it starts.
   */
  get inLongMarkup(): boolean {
    return this.#skip !== undefined;
  }

  /** Text fed but not read yet: an unfinished construct, text after the last one, or the tag a handler stopped at. */
  get pending(): string {
    return this.#buffer;
  }

  /**
   * During a handler call: the index of the reported construct's `<` in the text `feed` is
   * reading, which is `pending` before the call followed by the chunk.
   */
  get at(): number {
    return this.#at;
  }

  /** Consumes `chunk`; returns the events completed by it. @throws XmlSyntaxError */
  write(chunk: string): XmlEvent[] {
    const events: XmlEvent[] = [];
    this.feed(chunk, {
      open: (name, attributes, line, selfClosing) => {
        events.push({ kind: 'open', name, attributes, line, selfClosing });
      },
      text: (text) => events.push({ kind: 'text', text }),
      close: (name, line) => events.push({ kind: 'close', name, line }),
    });
    return events;
  }

  /**
   * Consumes `chunk`, calling `handler` for every construct it completes.
   *
   * @throws XmlSyntaxError for malformed XML, a character XML 1.0 does not allow (with its column),
   *   and a tag longer than `MAX_MARKUP_CHARS`.
   */
  feed(chunk: string, handler: XmlHandler): void {
    const buffer = this.#buffer === '' ? chunk : this.#buffer + chunk;
    const illegal = ILLEGAL_CHARACTER.exec(chunk);
    if (illegal) {
      const at = buffer.length - chunk.length + illegal.index;
      throw this.#errorAt(
        buffer,
        0,
        at,
        `the character ${codePointName(chunk.charCodeAt(illegal.index))} is not allowed in XML 1.0 documents: ` +
          'remove it (the file is not imported)',
      );
    }
    this.#newline = buffer.indexOf('\n');
    this.#amp = buffer.indexOf('&');
    let position = 0;
    for (;;) {
      if (this.#skip) {
        position = this.#skipping(buffer, position, handler);
        if (this.#skip) break;
      }
      const lt = buffer.indexOf('<', position);
      if (lt === -1) {
        position = this.#textPart(buffer, position, handler);
        break;
      }
      if (lt > position) {
        if (this.#depth > 0) handler.text(this.#decode(buffer, position, lt));
        this.#advance(buffer, lt);
        position = lt;
      }
      const next = buffer.charCodeAt(lt + 1);
      this.#at = lt;
      let end: number;
      if (next === 33 /* ! */ || next === 63 /* ? */) {
        end = this.#special(buffer, lt, handler);
      } else if (next === 47 /* / */) {
        const gt = buffer.indexOf('>', lt);
        if (gt === -1) end = -1;
        else {
          this.#depth -= 1;
          this.#openNames.pop();
          this.#openLines.pop();
          handler.close(handler.closeNames === false ? '' : localName(buffer.slice(lt + 2, gt).trim()), this.#line);
          end = gt + 1;
        }
      } else {
        end = this.#openTag(buffer, lt, handler);
      }
      if (end === -1 && buffer.length - lt > MAX_MARKUP_CHARS) end = this.#longMarkup(buffer, lt);
      if (end < 0) break;
      this.#advance(buffer, end);
      position = end;
    }
    if (position > 0) {
      const newline = buffer.lastIndexOf('\n', position - 1);
      if (newline !== -1) this.#column = position - newline - 1;
      else if (this.#column !== undefined) this.#column += position;
    }
    this.#buffer = position === 0 ? buffer : buffer.slice(position);
  }

  /**
   * Text from `from` to the end of `buffer`, which holds no `<`: handed over (inside the root) or
   * dropped once it is longer than `TEXT_PART_CHARS`, up to an unfinished reference. Returns where
   * the unread text starts.
   */
  #textPart(buffer: string, from: number, handler: XmlHandler): number {
    if (buffer.length - from <= TEXT_PART_CHARS) return from;
    let to = buffer.length;
    const amp = buffer.lastIndexOf('&');
    if (amp >= from && buffer.length - amp < 64 && buffer.indexOf(';', amp) === -1) to = amp;
    if (this.#depth > 0) handler.text(this.#decode(buffer, from, to));
    this.#advance(buffer, to);
    return to;
  }

  /**
   * The unfinished construct at `lt` is longer than `MAX_MARKUP_CHARS`: a comment, processing
   * instruction or CDATA section is read on as it arrives (returns where its content starts); a
   * tag refuses the file; a DOCTYPE is waited for up to `MAX_DOCTYPE_CHARS`.
   */
  #longMarkup(buffer: string, lt: number): number {
    if (buffer.startsWith('<!DOCTYPE', lt)) {
      if (buffer.length - lt <= MAX_DOCTYPE_CHARS) return -1;
      throw new XmlSyntaxError(
        `the DOCTYPE is longer than ${MAX_DOCTYPE_CHARS} characters, the most Triad reads (its declarations are ` +
          'not used for the import): shorten its internal subset "[...]" or remove it; the file is not imported',
        this.#line,
      );
    }
    for (const [open, until, text] of LONG_CONSTRUCTS) {
      if (!buffer.startsWith(open, lt)) continue;
      this.#skip = { until, text };
      return lt + open.length;
    }
    throw new XmlSyntaxError(
      `a tag longer than ${MAX_MARKUP_CHARS} characters (an attribute value that long?): the file is not imported`,
      this.#line,
    );
  }

  /**
   * Inside a long comment, processing instruction or CDATA section from `from`: hands its content
   * over (CDATA) or drops it, up to its end when the buffer holds it (ending the state). Returns
   * where the unread text starts.
   */
  #skipping(buffer: string, from: number, handler: XmlHandler): number {
    const { until, text } = this.#skip!;
    const at = buffer.indexOf(until, from);
    const to = at === -1 ? Math.max(from, buffer.length - (until.length - 1)) : at;
    if (text && to > from) handler.text(buffer.slice(from, to));
    if (at === -1) {
      this.#advance(buffer, to);
      return to;
    }
    this.#skip = undefined;
    this.#advance(buffer, at + until.length);
    return at + until.length;
  }

  /** An XmlSyntaxError at `buffer[at]`, with its line and column; the reader's line is that of `buffer[base]`. */
  #errorAt(buffer: string, base: number, at: number, reason: string): XmlSyntaxError {
    const line = this.#line + countLines(buffer, base, at);
    const newline = at === 0 ? -1 : buffer.lastIndexOf('\n', at - 1);
    const column = newline !== -1 ? at - newline : this.#column === undefined ? undefined : this.#column + at + 1;
    return new XmlSyntaxError(reason, line, column);
  }

  /**
   * `decodeEntities` of `buffer[from, to)`.
   *
   * @throws XmlSyntaxError with the line of an undeclared entity, the line and column of an illegal character
   */
  #decode(buffer: string, from: number, to: number): string {
    // Texts are decoded in buffer order: the next `&` is looked for once, not in every text.
    if (this.#amp !== -1 && this.#amp < from) this.#amp = buffer.indexOf('&', from);
    if (this.#amp === -1 || this.#amp >= to) return buffer.slice(from, to);
    try {
      return decodeEntities(buffer.slice(from, to));
    } catch (error) {
      if (error instanceof IllegalCharacterReferenceError)
        throw this.#errorAt(buffer, from, from + error.index, error.message);
      if (!(error instanceof UndeclaredEntityError)) throw error;
      throw new XmlSyntaxError(error.message, this.#line + countLines(buffer, from, from + error.index));
    }
  }

  /** Counts the newlines before `to` (each newline of the buffer is looked at once). */
  #advance(buffer: string, to: number): void {
    while (this.#newline !== -1 && this.#newline < to) {
      this.#line += 1;
      this.#newline = buffer.indexOf('\n', this.#newline + 1);
    }
  }

  /** Ends the stream. @throws XmlSyntaxError when a construct or element is left open. */
  end(): void {
    if (this.#buffer.includes('<') || this.#skip)
      throw new XmlSyntaxError('unfinished markup at the end of the file', this.#line);
    if (this.#depth > 0) throw new XmlSyntaxError(notClosed(this.openElements, this.#depth), this.#line);
    if (this.#depth !== 0)
      throw new XmlSyntaxError(`${this.#depth} element(s) not closed at the end of the file`, this.#line);
  }

  /**
   * Comment, CDATA (a text event), processing instruction or DOCTYPE at `lt`: index after it, or -1 when incomplete.
   */
  #special(buffer: string, lt: number, handler: XmlHandler): number {
    if (buffer.startsWith('<!--', lt)) return after(buffer, '-->', lt + 4);
    if (buffer.startsWith('<![CDATA[', lt)) {
      const end = after(buffer, ']]>', lt + 9);
      if (end !== -1) handler.text(buffer.slice(lt + 9, end - 3));
      return end;
    }
    if (buffer.startsWith('<?', lt)) return after(buffer, '?>', lt + 2);
    // A prefix of `<!--`, `<![CDATA[`, `<!DOCTYPE` or `<!ENTITY` cut by the chunk end: wait for more.
    if (buffer.length - lt < 9 && DECLARATIONS.some((d) => d.startsWith(buffer.slice(lt)))) return -1;
    if (buffer.startsWith('<!ENTITY', lt))
      throw new XmlSyntaxError(`an entity declaration (<!ENTITY ...>): ${NO_ENTITIES}; remove it`, this.#line);
    if (buffer.startsWith('<!DOCTYPE', lt)) {
      try {
        return doctypeEnd(buffer, lt);
      } catch (error) {
        if (!(error instanceof DoctypeError)) throw error;
        throw new XmlSyntaxError(
          `${error.message} (the file is not imported)`,
          this.#line + countLines(buffer, lt, error.at),
        );
      }
    }
    const gt = buffer.indexOf('>', lt);
    return gt === -1 ? -1 : gt + 1;
  }

  /**
   * A start or empty-element tag at `lt`: pushes its events, returns the index after it, -1 when incomplete, -2 when
   * the handler stopped.
   */
  #openTag(buffer: string, lt: number, handler: XmlHandler): number {
    const length = buffer.length;
    let i = lt + 1;
    let hash = 0;
    while (i < length) {
      const c = buffer.charCodeAt(i);
      if (isNameEnd(c)) break;
      hash = (hash * 31 + c) | 0;
      i += 1;
    }
    if (i >= length) return -1;
    if (i === lt + 1) {
      if (buffer.charCodeAt(i) === 60) throw new XmlSyntaxError(INSIDE_A_TAG, this.#line + countLines(buffer, lt, i));
      throw new XmlSyntaxError(
        `"<" followed by ${JSON.stringify(buffer.slice(i, i + 1))} starts no tag: write &lt; for a "<" in text ` +
          '(the file is not imported)',
        this.#line,
      );
    }
    const name = this.#names.localName(buffer, lt + 1, i, hash);
    let attributes: Record<string, string> | undefined;
    for (;;) {
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      const c = buffer.charCodeAt(i);
      if (c === 62 /* > */ || c === 47 /* / */) break;
      if (c === 60) throw new XmlSyntaxError(INSIDE_A_TAG, this.#line + countLines(buffer, lt, i));
      const nameStart = i;
      let attributeHash = 0;
      for (; i < length; i += 1) {
        const a = buffer.charCodeAt(i);
        if (isNameEnd(a) || a === 61 /* = */) break;
        attributeHash = (attributeHash * 31 + a) | 0;
      }
      const nameEnd = i;
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      if (buffer.charCodeAt(i) !== 61 || nameEnd === nameStart) throw this.#malformed(buffer, nameStart);
      i += 1;
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      const quote = buffer.charCodeAt(i);
      if (quote !== 34 && quote !== 39) throw this.#malformed(buffer, nameStart);
      const close = buffer.indexOf(quote === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      attributes ??= {};
      attributes[this.#names.localName(buffer, nameStart, nameEnd, attributeHash)] = this.#decode(buffer, i + 1, close);
      i = close + 1;
    }
    const selfClosing = buffer.charCodeAt(i) === 47;
    if (selfClosing) {
      if (i + 1 >= length) return -1;
      if (buffer.charCodeAt(i + 1) !== 62) throw this.#malformed(buffer, i);
      i += 1;
    }
    if (i - lt >= MAX_MARKUP_CHARS) this.#longMarkup(buffer, lt);
    const line = this.#line;
    if (handler.open(name, attributes ?? NO_ATTRIBUTES, line, selfClosing) === true) return -2;
    if (selfClosing) handler.close(name, line);
    else {
      this.#depth += 1;
      this.#openNames.push(name);
      this.#openLines.push(line);
    }
    return i + 1;
  }

  #malformed(buffer: string, at: number): XmlSyntaxError {
    return new XmlSyntaxError(
      `a malformed attribute (name="value" expected): ${buffer.slice(at, at + 40).split('>')[0]} ` +
        '(the file is not imported)',
      this.#line,
    );
  }
}

const INSIDE_A_TAG =
  '"<" inside a tag: the tag before it is not closed with ">" (or write &lt; for a "<" in an attribute value); ' +
  'the file is not imported';

/** Constructs read on when they are long: how they open, how they end, whether their content is text. */
const LONG_CONSTRUCTS: readonly (readonly [string, string, boolean])[] = [
  ['<!--', '-->', false],
  ['<![CDATA[', ']]>', true],
  ['<?', '?>', false],
];

/** Markup starting with `<!` that is told apart by its first nine characters. */
const DECLARATIONS = ['<!--', '<![CDATA[', '<!DOCTYPE', '<!ENTITY'];

/** Index after the first `token` at or after `from`, or -1. */
function after(buffer: string, token: string, from: number): number {
  const at = buffer.indexOf(token, from);
  return at === -1 ? -1 : at + token.length;
}

/** Newlines in `text[from, to)`; a loop, as `indexOf` would run on to the next newline of a long line. */
export function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return n;
}

/** XML whitespace: space, newline, tab, carriage return. */
export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/** Ends an element or attribute name: whitespace, `/`, `>`, `<`, quotes (all below 63: a letter is tested once). */
function isNameEnd(c: number): boolean {
  return (
    c < 63 && (c === 32 || c === 10 || c === 9 || c === 13 || c === 47 || c === 62 || c === 60 || c === 34 || c === 39)
  );
}

/**
 * The local names of the element names read, each one string for all its tags: a file names a few
 * dozen elements millions of times. A name read again is compared in the buffer, not cut out, and
 * the one string (internalized: a property key) is quick for the handler to switch on, look up in
 * a set or use as a key (profiled: a new string per tag cost a tenth of reading an item). One
 * cache serves all readers of a thread (`SHARED_NAMES`): a file is read in pieces of 64 KiB, each
 * by a new reader, and making the strings again for each piece cost more than it saved. Names
 * are compared character by character (quicker than `startsWith` at an offset, measured).
 */
class NameCache {
  /** Open addressing by the name's hash; at most `MAX_CACHED_NAMES` names, later ones are cut out each time. */
  readonly #slots: ({ readonly name: string; readonly local: string } | undefined)[] = new Array<undefined>(
    2 * MAX_CACHED_NAMES,
  );
  #size = 0;

  /** `localName(buffer.slice(from, to))`; `hash` is the `(h * 31 + c) | 0` of the name's characters. */
  localName(buffer: string, from: number, to: number, hash: number): string {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let known = slots[slot]; known !== undefined; known = slots[slot]) {
      if (known.name.length === to - from && sameAt(buffer, from, known.name)) return known.local;
      slot = (slot + 1) & mask;
    }
    const name = buffer.slice(from, to);
    if (to - from > MAX_CACHED_NAME || this.#size >= MAX_CACHED_NAMES) return localName(name);
    const local = internalized(localName(name));
    slots[slot] = { name, local };
    this.#size += 1;
    return local;
  }
}

/** Whether `buffer` holds `name` at `from` (the caller checked it fits). */
function sameAt(buffer: string, from: number, name: string): boolean {
  for (let k = name.length - 1; k >= 0; k -= 1) if (buffer.charCodeAt(from + k) !== name.charCodeAt(k)) return false;
  return true;
}

/** Names a reader caches (a power of two): BMEcat has a few hundred element names. */
const MAX_CACHED_NAMES = 512;

/** Longer names are not cached (they are no BMEcat names). */
const MAX_CACHED_NAME = 64;

/** `text` as the engine's one string for it (as a property key is held), so comparisons with it are quick. */
function internalized(text: string): string {
  return Object.keys({ [text]: 0 })[0] ?? text;
}

/** The names cache of this thread; once full (a file of made-up names), further names are cut out each time. */
const SHARED_NAMES = new NameCache();

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
