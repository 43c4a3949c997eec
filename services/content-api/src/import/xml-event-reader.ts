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

/** Malformed XML, with the 1-based line where it was found. */
export class XmlSyntaxError extends Error {
  readonly line: number;
  /** The message without the line. */
  readonly reason: string;
  constructor(reason: string, line: number) {
    super(`line ${line}: ${reason}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
    this.reason = reason;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Why declarations and references to declared entities refuse a document. */
const NOT_PROCESSED = 'DTDs and entities are not processed; remove the declaration';

/** An entity reference other than the five predefined ones: `index` is where it starts in the decoded text. */
export class UndeclaredEntityError extends Error {
  readonly index: number;
  constructor(reference: string, index: number) {
    super(
      `entity reference ${reference} is not one of the five XML entities (&lt; &gt; &amp; &quot; &apos;): ` +
        'DTDs and entities are not processed; write the character itself or a character reference',
    );
    this.name = 'UndeclaredEntityError';
    this.index = index;
  }
}

/**
 * Replaces the five predefined entities and character references.
 *
 * @throws UndeclaredEntityError for any other entity reference (`&nbsp;`): nothing declares it.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z][\w.-]*);/g, (whole, ref: string, index: number) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10), whole);
    const decoded = ENTITIES[ref];
    if (decoded === undefined) throw new UndeclaredEntityError(whole, index);
    return decoded;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
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

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A small streaming XML reader for catalog files: feed text chunks of any size with `write`
 * (events as values) or `feed` (calls on a handler, nothing allocated per event), get what the
 * chunk completed; `end` checks nothing is left open. Handles elements, attributes, text, CDATA,
 * comments, processing instructions and a DOCTYPE that only names an external DTD (skipped, never
 * fetched). A DOCTYPE with declarations (`[...]`), an `ENTITY` declaration and a reference to an
 * entity other than the five predefined ones are refused with their line: DTDs and entities are
 * not processed, and storing them as text would serve something the supplier did not mean. Memory stays bounded by the
 * largest single construct, not by the file. Tags and attributes are read by one forward scan
 * (no regular expressions): the import reads gigabytes with it.
 */
export class XmlEventReader {
  #buffer = '';
  #line: number;
  #depth: number;
  /** Index of the next newline in the buffer being read, -1 when none is left. */
  #newline = -1;
  #at = 0;

  /**
   * `line` and `depth` (default 1 and 0) say where the text starts, for a reader that takes up a
   * document in the middle (at an element boundary). Its depth may then fall below zero.
   */
  constructor(start: { readonly line?: number; readonly depth?: number } = {}) {
    this.#line = start.line ?? 1;
    this.#depth = start.depth ?? 0;
  }

  /** The line reached: of the construct being reported during a handler call. */
  get line(): number {
    return this.#line;
  }

  /** Elements open (start tags read minus end tags read), counted from the start depth. */
  get depth(): number {
    return this.#depth;
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

  /** Consumes `chunk`, calling `handler` for every construct it completes. @throws XmlSyntaxError */
  feed(chunk: string, handler: XmlHandler): void {
    const buffer = this.#buffer === '' ? chunk : this.#buffer + chunk;
    this.#newline = buffer.indexOf('\n');
    let position = 0;
    for (;;) {
      const lt = buffer.indexOf('<', position);
      if (lt === -1) break;
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
        if (gt === -1) break;
        this.#depth -= 1;
        handler.close(handler.closeNames === false ? '' : localName(buffer.slice(lt + 2, gt).trim()), this.#line);
        end = gt + 1;
      } else {
        end = this.#openTag(buffer, lt, handler);
      }
      if (end < 0) break;
      this.#advance(buffer, end);
      position = end;
    }
    this.#buffer = position === 0 ? buffer : buffer.slice(position);
  }

  /** `decodeEntities` of `buffer[from, to)`. @throws XmlSyntaxError with the line of an undeclared entity */
  #decode(buffer: string, from: number, to: number): string {
    try {
      return decodeEntities(buffer.slice(from, to));
    } catch (error) {
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
    if (this.#buffer.includes('<')) throw new XmlSyntaxError('unfinished markup at the end of the file', this.#line);
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
      throw new XmlSyntaxError(`an ENTITY declaration: ${NOT_PROCESSED}`, this.#line);
    const gt = buffer.indexOf('>', lt);
    const bracket = buffer.indexOf('[', lt);
    if (bracket !== -1 && (gt === -1 || bracket < gt))
      throw new XmlSyntaxError(`a DOCTYPE with declarations ([...]): ${NOT_PROCESSED}`, this.#line);
    return gt === -1 ? -1 : gt + 1;
  }

  /**
   * A start or empty-element tag at `lt`: pushes its events, returns the index after it, -1 when incomplete, -2 when
   * the handler stopped.
   */
  #openTag(buffer: string, lt: number, handler: XmlHandler): number {
    const length = buffer.length;
    let i = lt + 1;
    while (i < length && !isNameEnd(buffer.charCodeAt(i))) i += 1;
    if (i >= length) return -1;
    if (i === lt + 1) {
      if (buffer.charCodeAt(i) === 60)
        throw new XmlSyntaxError('"<" inside a tag', this.#line + countLines(buffer, lt, i));
      throw new XmlSyntaxError('element without a name', this.#line);
    }
    const name = localName(buffer.slice(lt + 1, i));
    let attributes: Record<string, string> | undefined;
    for (;;) {
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      const c = buffer.charCodeAt(i);
      if (c === 62 /* > */ || c === 47 /* / */) break;
      if (c === 60) throw new XmlSyntaxError('"<" inside a tag', this.#line + countLines(buffer, lt, i));
      const nameStart = i;
      while (i < length && !isNameEnd(buffer.charCodeAt(i)) && buffer.charCodeAt(i) !== 61 /* = */) i += 1;
      const attribute = buffer.slice(nameStart, i);
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      if (buffer.charCodeAt(i) !== 61 || attribute === '') throw this.#malformed(buffer, nameStart);
      i += 1;
      while (i < length && isSpace(buffer.charCodeAt(i))) i += 1;
      if (i >= length) return -1;
      const quote = buffer.charCodeAt(i);
      if (quote !== 34 && quote !== 39) throw this.#malformed(buffer, nameStart);
      const close = buffer.indexOf(quote === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      attributes ??= {};
      attributes[localName(attribute)] = this.#decode(buffer, i + 1, close);
      i = close + 1;
    }
    const selfClosing = buffer.charCodeAt(i) === 47;
    if (selfClosing) {
      if (i + 1 >= length) return -1;
      if (buffer.charCodeAt(i + 1) !== 62) throw this.#malformed(buffer, i);
      i += 1;
    }
    const line = this.#line;
    if (handler.open(name, attributes ?? NO_ATTRIBUTES, line, selfClosing) === true) return -2;
    if (selfClosing) handler.close(name, line);
    else this.#depth += 1;
    return i + 1;
  }

  #malformed(buffer: string, at: number): XmlSyntaxError {
    return new XmlSyntaxError(`malformed attributes: ${buffer.slice(at, at + 40).split('>')[0]}`, this.#line);
  }
}

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

/** Ends an element or attribute name: whitespace, `/`, `>`, `<`, quotes. */
function isNameEnd(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 47 || c === 62 || c === 60 || c === 34 || c === 39;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
