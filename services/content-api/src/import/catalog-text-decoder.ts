import { isUtf8 } from 'node:buffer';
import {
  CatalogEncodingError,
  encodingLabel,
  readEncodingDeclaration,
  type CatalogEncoding,
  type EncodingDeclaration,
} from './xml-encoding.js';

/**
 * How the bytes of a catalog file are decoded: a BMEcat file's declaration (`xml-encoding.ts`), or
 * `json-lines` (always UTF-8, RFC 8259).
 */
export type TextSource = Pick<EncodingDeclaration, 'encoding' | 'declared'> | 'json-lines';

const JSON_LINES: Pick<EncodingDeclaration, 'encoding' | 'declared'> = { encoding: 'utf-8', declared: undefined };

/** Bytes that are not text in the encoding: the valid text before them and what is wrong. */
interface Undecodable {
  readonly before: string;
  readonly reason: string;
}

/**
 * Decodes a piece of a file that starts and ends on whole characters (no byte order mark).
 *
 * @throws CatalogEncodingError for bytes that are not text in the encoding, with the line counted
 *   from 1 at the piece's start; on that first line the column only when `startColumn` (characters
 *   before the piece on its line) is given.
 */
export function decodePiece(bytes: Uint8Array, source: TextSource, startColumn?: number): string {
  const declaration = source === 'json-lines' ? JSON_LINES : source;
  const whole = declaration.encoding === 'utf-8' ? bytes.length : wholeCharacters(bytes, declaration.encoding);
  const decoded = decodeWhole(bytes.subarray(0, whole), declaration);
  if (typeof decoded === 'string') {
    if (
      whole === bytes.length &&
      !(isUtf16(declaration.encoding) && isHighSurrogate(decoded.charCodeAt(decoded.length - 1)))
    )
      return decoded;
    throw located(cutShort(decoded, declaration), source, 1, startColumn);
  }
  throw located(decoded, source, 1, startColumn);
}

/**
 * Streams the text of a catalog file out of its bytes, in any chunks: a BMEcat file in the
 * encoding its start declares (byte order mark, XML declaration; the mark is dropped), JSON Lines
 * as UTF-8. Nothing is replaced: bytes that are not text in the encoding refuse the file with
 * their line and column.
 */
export class CatalogTextDecoder {
  readonly #format: 'xml' | 'json-lines';
  #declaration: EncodingDeclaration | undefined;
  /** Bytes before the encoding is known, or the start of a character cut by the chunk end. */
  #held: Uint8Array = new Uint8Array(0);
  /** UTF-16: a high surrogate at the end of the last chunk, waiting for its low half. */
  #surrogate = '';
  #bomLeft = 0;
  #line = 1;
  /** Characters on the current line so far. */
  #column = 0;

  constructor(format: 'xml' | 'json-lines') {
    this.#format = format;
    if (format === 'json-lines') this.#declaration = { ...JSON_LINES, bomBytes: 0 };
  }

  /** The file's encoding, once its start has been read. */
  get declaration(): EncodingDeclaration | undefined {
    return this.#declaration;
  }

  /**
   * Hands over the bytes held back (the start of a character cut by the last chunk's end, or the
   * start of the file while its encoding is not known), to be decoded elsewhere with what follows.
   */
  takeHeld(): Uint8Array {
    const held = this.#held;
    this.#held = new Uint8Array(0);
    return held;
  }

  /** The text `bytes` completed. @throws CatalogEncodingError */
  write(bytes: Uint8Array): string {
    return this.#decode(bytes, false);
  }

  /** The text left at the end of the file. @throws CatalogEncodingError for a character the file cuts short. */
  end(): string {
    return this.#decode(new Uint8Array(0), true);
  }

  #decode(chunk: Uint8Array, final: boolean): string {
    let bytes = this.#held.length === 0 ? chunk : Buffer.concat([this.#held, chunk]);
    this.#held = new Uint8Array(0);
    let declaration = this.#declaration;
    if (!declaration) {
      declaration = readEncodingDeclaration(bytes, final);
      if (!declaration) {
        this.#held = bytes;
        return '';
      }
      this.#declaration = declaration;
      this.#bomLeft = declaration.bomBytes;
    }
    if (this.#bomLeft > 0) {
      const skip = Math.min(this.#bomLeft, bytes.length);
      this.#bomLeft -= skip;
      bytes = bytes.subarray(skip);
    }
    // At the end, UTF-8 bytes cut short are checked as invalid; a UTF-16 character cut short is reported below.
    const whole =
      final && declaration.encoding === 'utf-8' ? bytes.length : wholeCharacters(bytes, declaration.encoding);
    const decoded = decodeWhole(bytes.subarray(0, whole), declaration, this.#surrogate);
    if (typeof decoded !== 'string') throw located(decoded, this.#source, this.#line, this.#column);
    let text = decoded;
    this.#surrogate = '';
    if (isUtf16(declaration.encoding) && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      if (final) throw located(cutShort(text.slice(0, -1), declaration), this.#source, this.#line, this.#column);
      this.#surrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (whole < bytes.length) {
      if (final) throw located(cutShort(text, declaration), this.#source, this.#line, this.#column);
      this.#held = Uint8Array.from(bytes.subarray(whole));
    }
    this.#count(text);
    return text;
  }

  get #source(): TextSource {
    return this.#format === 'json-lines' || !this.#declaration ? 'json-lines' : this.#declaration;
  }

  /** Keeps the line and column reached, for errors in later chunks. */
  #count(text: string): void {
    let last = -1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      this.#line += 1;
      last = i;
    }
    this.#column = last === -1 ? this.#column + text.length : text.length - last - 1;
  }
}

/**
 * `text` (decoded from a single-byte encoding) in the bytes it was decoded from: `decodeWhole` of
 * them gives `text` again.
 */
export function encodeSingleByte(text: string, encoding: 'windows-1252' | 'iso-8859-15' | 'us-ascii'): Buffer {
  if (!/[\u0100-\uFFFF]/.test(text)) return Buffer.from(text, 'latin1');
  const bytes = REVERSE[encoding];
  return Buffer.from(Array.from(text, (c) => bytes.get(c) ?? c.charCodeAt(0)));
}

/** Length of the longest prefix of `bytes` that ends on a whole character of `encoding`. */
function wholeCharacters(bytes: Uint8Array, encoding: CatalogEncoding): number {
  if (encoding === 'utf-8') return utf8Boundary(bytes);
  if (isUtf16(encoding)) return bytes.length & ~1;
  return bytes.length;
}

/** Length of the longest prefix of `bytes` that ends on a whole UTF-8 character. */
export function utf8Boundary(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = n - 1;
  while (i >= 0 && n - i <= 3 && (bytes[i]! & 0xc0) === 0x80) i -= 1;
  if (i < 0) return n;
  const lead = bytes[i]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return n - i >= size ? n : i;
}

function isUtf16(encoding: CatalogEncoding): encoding is 'utf-16le' | 'utf-16be' {
  return encoding === 'utf-16le' || encoding === 'utf-16be';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The text of `bytes` (whole characters; `carry`: a UTF-16 high surrogate before them), or where it fails. */
function decodeWhole(
  bytes: Uint8Array,
  declaration: Pick<EncodingDeclaration, 'encoding'>,
  carry = '',
): string | Undecodable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encoding = declaration.encoding;
  if (encoding === 'utf-8') return isUtf8(buffer) ? buffer.toString('utf8') : invalidUtf8(buffer);
  if (isUtf16(encoding)) {
    let units = buffer;
    if (encoding === 'utf-16be') units = Buffer.from(buffer).swap16();
    const text = carry + units.toString('utf16le');
    const lone = LONE_SURROGATE.exec(text);
    if (!lone) return text;
    const code = text.charCodeAt(lone.index);
    // A high surrogate at the very end may still get its low half: only the caller knows.
    if (lone.index === text.length - 1 && isHighSurrogate(code)) return text;
    return {
      before: text.slice(0, lone.index),
      reason:
        `the UTF-16 code unit 0x${code.toString(16).toUpperCase()} is half of a character ` +
        'whose other half is missing',
    };
  }
  const text = buffer.toString('latin1');
  const table = SINGLE_BYTE[encoding];
  if (!table.special.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const byte = text.charCodeAt(i);
    if (byte < 0x80) continue;
    const mapped = table.characters[byte - 0x80];
    if (mapped === undefined) return { before: out + text.slice(from, i), reason: table.undefinedByte(byte) };
    if (mapped === text[i]) continue;
    out += text.slice(from, i) + mapped;
    from = i + 1;
  }
  return out + text.slice(from);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A single-byte encoding: characters of bytes 0x80–0xFF (undefined: not text), and how to find bytes that change. */
interface SingleByteTable {
  readonly characters: readonly (string | undefined)[];
  readonly special: RegExp;
  undefinedByte(byte: number): string;
}

/**
 * Windows-1252's bytes 0x80–0x9F (WHATWG Encoding Standard, index-windows-1252); 0 where it
 * assigns no character. Written out because Node 20's `TextDecoder('windows-1252')` decodes these
 * bytes as ISO-8859-1 controls (U+0080–U+009F) instead.
 */
const WINDOWS_1252_C1 = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * Characters of bytes 0x80–0xFF, where a byte that would decode to a C1 control (U+0080–U+009F)
 * counts as no character (decision 0035): Windows-1252's five unassigned bytes, ISO-8859-15's
 * 0x80–0x9F. ISO-8859-15 comes from the platform's table (ICU).
 */
function singleByte(label: 'windows-1252' | 'iso-8859-15'): readonly (string | undefined)[] {
  const decoder = new TextDecoder('iso-8859-15');
  return Array.from({ length: 0x80 }, (_, i) => {
    if (i < 0x20) {
      const code = label === 'windows-1252' ? (WINDOWS_1252_C1[i] ?? 0) : 0;
      return code === 0 ? undefined : String.fromCharCode(code);
    }
    return label === 'windows-1252' ? String.fromCharCode(0x80 + i) : decoder.decode(Uint8Array.of(0x80 + i));
  });
}

const SINGLE_BYTE: Readonly<Record<'windows-1252' | 'iso-8859-15' | 'us-ascii', SingleByteTable>> = {
  'windows-1252': {
    characters: singleByte('windows-1252'),
    special: /[\x80-\x9F]/,
    undefinedByte: (byte) =>
      `byte ${hex(byte)} is no character in Windows-1252 (nor a printable one in ISO-8859-1, which Triad reads ` +
      'as Windows-1252)',
  },
  'iso-8859-15': {
    characters: singleByte('iso-8859-15'),
    special: /[\x80-\x9F\xA4\xA6\xA8\xB4\xB8\xBC-\xBE]/,
    undefinedByte: (byte) =>
      `byte ${hex(byte)} is a control character in ISO-8859-15, not text` +
      (byte === 0x80 ? ' (the euro sign is 0xA4 in ISO-8859-15 and 0x80 in Windows-1252)' : ''),
  },
  'us-ascii': {
    characters: Array.from({ length: 0x80 }, () => undefined),
    special: /[\x80-\xFF]/,
    undefinedByte: (byte) => `byte ${hex(byte)} is not US-ASCII, which ends at 0x7F`,
  },
};

const REVERSE: Readonly<Record<keyof typeof SINGLE_BYTE, ReadonlyMap<string, number>>> = {
  'windows-1252': reverse(SINGLE_BYTE['windows-1252']),
  'iso-8859-15': reverse(SINGLE_BYTE['iso-8859-15']),
  'us-ascii': reverse(SINGLE_BYTE['us-ascii']),
};

function reverse(table: SingleByteTable): ReadonlyMap<string, number> {
  const map = new Map<string, number>();
  table.characters.forEach((c, i) => {
    if (c !== undefined) map.set(c, 0x80 + i);
  });
  return map;
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Where the invalid UTF-8 in `bytes` starts (`isUtf8` said there is some). */
function invalidUtf8(bytes: Buffer): Undecodable {
  let i = 0;
  while (i < bytes.length) {
    const size = utf8SequenceLength(bytes, i);
    if (size === 0) break;
    i += size;
  }
  const byte = bytes[i] ?? 0;
  const windows = byte >= 0x80 ? SINGLE_BYTE['windows-1252'].characters[byte - 0x80] : undefined;
  return {
    before: bytes.toString('utf8', 0, i),
    reason:
      `byte ${hex(byte)} is not valid UTF-8` +
      (windows !== undefined ? ` (in ISO-8859-1 or Windows-1252 it would be "${windows}")` : ''),
  };
}

/** Bytes of the valid UTF-8 character at `i`, 0 when none starts there (RFC 3629: no overlong forms, no surrogates). */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const continuation = (k: number, low = 0x80, high = 0xbf) => {
    const b = bytes[i + k];
    return b !== undefined && b >= low && b <= high;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return continuation(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const low = b0 === 0xe0 ? 0xa0 : 0x80;
    const high = b0 === 0xed ? 0x9f : 0xbf;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const low = b0 === 0xf0 ? 0x90 : 0x80;
    const high = b0 === 0xf4 ? 0x8f : 0xbf;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/** The file ends inside a character (held bytes left at the end). */
function cutShort(text: string, declaration: Pick<EncodingDeclaration, 'encoding'>): Undecodable {
  return {
    before: text,
    reason:
      `the file ends in the middle of a ${isUtf16(declaration.encoding) ? 'UTF-16' : 'UTF-8'} character ` +
      '(is it cut short?)',
  };
}

/**
 * The error for `failure`, found in text that starts at `line` and `column` (characters before it
 * on its line; undefined: unknown), in the words of the file's format.
 */
function located(
  failure: Undecodable,
  source: TextSource,
  line: number,
  column: number | undefined,
): CatalogEncodingError {
  const { before } = failure;
  let lines = 0;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lines += 1;
  const newline = before.lastIndexOf('\n');
  const at = newline !== -1 ? before.length - newline : column === undefined ? undefined : column + before.length + 1;
  const advice =
    source === 'json-lines'
      ? 'JSON Lines files are UTF-8 (RFC 8259): save the file as UTF-8'
      : source.encoding === 'utf-8'
        ? `${encodingLabel(source)}: save it as UTF-8 or declare its real encoding, ` +
          'e.g. <?xml version="1.0" encoding="ISO-8859-1"?>'
        : `${encodingLabel(source)}: save it in that encoding or declare its real one`;
  return new CatalogEncodingError(`${failure.reason}; ${advice} (the file is not imported)`, line + lines, at);
}
