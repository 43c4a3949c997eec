/** One event of the XML stream. Names lose their namespace prefix (`bmecat:ARTICLE` -> `ARTICLE`). */
export type XmlEvent =
  | { readonly kind: 'open'; readonly name: string; readonly attributes: Readonly<Record<string, string>>; readonly line: number; readonly selfClosing: boolean }
  | { readonly kind: 'close'; readonly name: string; readonly line: number }
  | { readonly kind: 'text'; readonly text: string };

/** Malformed XML, with the 1-based line where it was found. */
export class XmlSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Replaces the five predefined entities and character references; unknown entities stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10), whole);
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/**
 * A small streaming XML reader for catalog files: feed text chunks of any size with `write`, get
 * the complete events so far; `end` checks nothing is left open. Handles elements, attributes,
 * text, CDATA, comments, processing instructions and DOCTYPE (never fetched). Memory stays
 * bounded by the largest single construct, not by the file.
 */
export class XmlEventReader {
  #buffer = '';
  #line = 1;
  #depth = 0;

  /** Consumes `chunk`; returns the events completed by it. @throws XmlSyntaxError */
  write(chunk: string): XmlEvent[] {
    this.#buffer += chunk;
    const events: XmlEvent[] = [];
    let position = 0;
    const buffer = this.#buffer;
    for (;;) {
      const lt = buffer.indexOf('<', position);
      if (lt === -1) break;
      if (lt > position) {
        const text = buffer.slice(position, lt);
        if (this.#depth > 0) events.push({ kind: 'text', text: decodeEntities(text) });
        this.#count(text);
        position = lt;
      }
      const end = this.#constructEnd(buffer, lt);
      if (end === -1) break;
      const construct = buffer.slice(lt, end);
      const line = this.#line;
      this.#count(construct);
      position = end;
      if (construct.startsWith('<![CDATA[')) {
        events.push({ kind: 'text', text: construct.slice(9, -3) });
      } else if (construct.startsWith('<!') || construct.startsWith('<?')) {
        continue;
      } else if (construct.startsWith('</')) {
        this.#depth -= 1;
        events.push({ kind: 'close', name: localName(construct.slice(2, -1).trim()), line });
      } else {
        const selfClosing = construct.endsWith('/>');
        const body = construct.slice(1, selfClosing ? -2 : -1);
        const match = /^([^\s/>]+)/.exec(body);
        if (!match) throw new XmlSyntaxError('element without a name', line);
        const name = localName(match[1] as string);
        events.push({ kind: 'open', name, attributes: parseAttributes(body.slice(match[0].length), line), line, selfClosing });
        if (selfClosing) events.push({ kind: 'close', name, line });
        else this.#depth += 1;
      }
    }
    this.#buffer = buffer.slice(position);
    return events;
  }

  /** Ends the stream. @throws XmlSyntaxError when a construct or element is left open. */
  end(): void {
    if (this.#buffer.includes('<')) throw new XmlSyntaxError('unfinished markup at the end of the file', this.#line);
    if (this.#depth !== 0) throw new XmlSyntaxError(`${this.#depth} element(s) not closed at the end of the file`, this.#line);
  }

  #count(text: string): void {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.#line += 1;
  }

  /** Index after the construct starting at `lt`, or -1 when it is not complete yet. */
  #constructEnd(buffer: string, lt: number): number {
    const closing = (token: string, from: number) => {
      const at = buffer.indexOf(token, from);
      return at === -1 ? -1 : at + token.length;
    };
    if (buffer.startsWith('<!--', lt)) return closing('-->', lt + 4);
    if (buffer.startsWith('<![CDATA[', lt)) return closing(']]>', lt + 9);
    if (buffer.startsWith('<?', lt)) return closing('?>', lt + 2);
    if (buffer.length - lt < 9 && ('<!--'.startsWith(buffer.slice(lt)) || '<![CDATA['.startsWith(buffer.slice(lt)))) return -1;
    if (buffer.startsWith('<!', lt)) {
      const gt = buffer.indexOf('>', lt);
      const bracket = buffer.indexOf('[', lt);
      return bracket !== -1 && (gt === -1 || bracket < gt) ? closing(']>', bracket) : gt === -1 ? -1 : gt + 1;
    }
    let quote = '';
    for (let i = lt + 1; i < buffer.length; i += 1) {
      const c = buffer[i];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') return i + 1;
      else if (c === '<') throw new XmlSyntaxError('"<" inside a tag', this.#line);
    }
    return -1;
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function parseAttributes(text: string, line: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  let rest = text;
  for (const match of text.matchAll(pattern)) {
    attributes[localName(match[1] as string)] = decodeEntities(match[3] ?? match[4] ?? '');
    rest = rest.replace(match[0], '');
  }
  if (rest.trim() !== '') throw new XmlSyntaxError(`malformed attributes: ${rest.trim().slice(0, 40)}`, line);
  return attributes;
}
