import { XmlSyntaxError } from './xml-event-reader.js';

/**
 * How Triad reads the bytes of a catalog file (docs/decisions/0035-catalog-text-encodings.md):
 * `windows-1252` also for files that declare ISO-8859-1 or Latin-1 (as browsers do), so a byte
 * 0x80–0x9F becomes the character Windows meant (`€`, `„`, `–`) and never an invisible control.
 */
export type CatalogEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'iso-8859-15' | 'us-ascii';

/** The encodings a catalog file may declare, as an error message lists them. */
export const SUPPORTED_ENCODINGS =
  'UTF-8, UTF-16 (with a byte order mark), ISO-8859-1 (Latin-1), ISO-8859-15 (Latin-9), Windows-1252 and US-ASCII';

/** A file's bytes that are not text in its encoding, or an encoding Triad does not read: the file is refused. */
export class CatalogEncodingError extends XmlSyntaxError {
  constructor(reason: string, line: number, column?: number) {
    super(reason, line, column);
    this.name = 'CatalogEncodingError';
  }
}

/** What the start of a file says about its encoding. */
export interface EncodingDeclaration {
  readonly encoding: CatalogEncoding;
  /** The `encoding="..."` of the XML declaration as written; undefined when there is none. */
  readonly declared: string | undefined;
  /** Bytes of a byte order mark at the start (skipped when decoding). */
  readonly bomBytes: number;
}

/** Encoding names (lower case) and what they are read as. */
const NAMES: ReadonlyMap<string, CatalogEncoding> = new Map([
  ...names('utf-8', ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'x-unicode20utf8']),
  ...names('windows-1252', [
    'windows-1252',
    'cp1252',
    'x-cp1252',
    'ms-ansi',
    'iso-8859-1',
    'iso8859-1',
    'iso_8859-1',
    'iso_8859-1:1987',
    'iso88591',
    'latin1',
    'latin-1',
    'l1',
    'iso-ir-100',
    'cp819',
    'ibm819',
    'csisolatin1',
  ]),
  ...names('iso-8859-15', [
    'iso-8859-15',
    'iso8859-15',
    'iso_8859-15',
    'iso885915',
    'latin9',
    'latin-9',
    'l9',
    'csisolatin9',
  ]),
  ...names('us-ascii', ['us-ascii', 'ascii', 'us', 'iso646-us', 'ansi_x3.4-1968', 'cp367', 'ibm367', 'csascii']),
]);

/** UTF-16 names: the byte order mark says which. */
const UTF16_NAMES: ReadonlySet<string> = new Set([
  'utf-16',
  'utf16',
  'utf-16le',
  'utf-16be',
  'ucs-2',
  'iso-10646-ucs-2',
]);

function names(encoding: CatalogEncoding, list: readonly string[]): [string, CatalogEncoding][] {
  return list.map((name) => [name, encoding]);
}

/** Bytes of the start of a file within which an XML declaration must end. */
const DECLARATION_BYTES = 1024;

/**
 * Reads the encoding from the start of an XML file: its byte order mark, else the `encoding` of
 * its XML declaration, else UTF-8 (XML's default). UTF-16 without a byte order mark is recognised
 * by `<?` (XML 1.0, appendix F). Returns undefined while `head` is too short to tell and `final`
 * is false (the file goes on).
 *
 * @throws CatalogEncodingError (line 1) for an encoding Triad does not read and for a declaration
 *   the byte order mark contradicts.
 */
export function readEncodingDeclaration(head: Uint8Array, final: boolean): EncodingDeclaration | undefined {
  if (!final && head.length < 4) return undefined;
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return ascii(head, 3, 'utf-8', final);
  if (b0 === 0xff && b1 === 0xfe) return utf16(head, 2, 'utf-16le', final);
  if (b0 === 0xfe && b1 === 0xff) return utf16(head, 2, 'utf-16be', final);
  if (b0 === 0x3c && b1 === 0 && b2 === 0x3f && b3 === 0) return utf16(head, 0, 'utf-16le', final);
  if (b0 === 0 && b1 === 0x3c && b2 === 0 && b3 === 0x3f) return utf16(head, 0, 'utf-16be', final);
  return ascii(head, 0, undefined, final);
}

/** An ASCII-compatible start (after a UTF-8 byte order mark when `bom` says so). */
function ascii(
  head: Uint8Array,
  bomBytes: number,
  bom: CatalogEncoding | undefined,
  final: boolean,
): EncodingDeclaration | undefined {
  const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, DECLARATION_BYTES)).toString(
    'latin1',
    bomBytes,
  );
  const declared = declaredName(text, final || head.length >= DECLARATION_BYTES);
  if (declared === null) return undefined;
  if (declared === undefined) return { encoding: 'utf-8', declared, bomBytes };
  const key = declared.toLowerCase();
  const encoding = NAMES.get(key);
  if (bom !== undefined && encoding !== bom)
    throw new CatalogEncodingError(
      `the file starts with a UTF-8 byte order mark but declares encoding="${declared}": ` +
        'declare encoding="UTF-8", or save the file without the byte order mark',
      1,
    );
  if (encoding !== undefined) return { encoding, declared, bomBytes };
  if (UTF16_NAMES.has(key))
    throw new CatalogEncodingError(
      `the file declares encoding="${declared}" but its bytes are not UTF-16 (no byte order mark, and the ` +
        'declaration itself is written one byte per character): save it as UTF-16 with a byte order mark, ' +
        'or declare its real encoding',
      1,
    );
  throw unsupported(declared);
}

/** A UTF-16 start (with a byte order mark of `bomBytes`, or `<?` in UTF-16). */
function utf16(
  head: Uint8Array,
  bomBytes: number,
  encoding: 'utf-16le' | 'utf-16be',
  final: boolean,
): EncodingDeclaration | undefined {
  const even = Math.min(head.length, 2 * DECLARATION_BYTES) & ~1;
  const bytes = Buffer.from(head.subarray(bomBytes, even));
  if (encoding === 'utf-16be') bytes.swap16();
  const declared = declaredName(bytes.toString('utf16le'), final || head.length >= 2 * DECLARATION_BYTES);
  if (declared === null) return undefined;
  if (declared !== undefined && !UTF16_NAMES.has(declared.toLowerCase())) {
    if (!NAMES.has(declared.toLowerCase())) throw unsupported(declared);
    throw new CatalogEncodingError(
      `the file is UTF-16 (${bomBytes > 0 ? 'it starts with a UTF-16 byte order mark' : 'its first characters are'}) ` +
        `but declares encoding="${declared}": declare encoding="UTF-16", or save the file in ${declared}`,
      1,
    );
  }
  return { encoding, declared, bomBytes };
}

/**
 * The `encoding` of the XML declaration at the start of `text`; undefined when there is none,
 * null when the declaration may not be complete yet (`whole` false).
 */
function declaredName(text: string, whole: boolean): string | undefined | null {
  if (!text.startsWith('<?xml')) return whole || !'<?xml'.startsWith(text.slice(0, 5)) ? undefined : null;
  const end = text.indexOf('?>');
  if (end === -1) return whole ? undefined : null;
  const match = /\sencoding\s*=\s*(["'])([^"']*)\1/.exec(text.slice(0, end));
  return match?.[2];
}

function unsupported(declared: string): CatalogEncodingError {
  return new CatalogEncodingError(
    `the file declares encoding="${declared}", which Triad does not read; it reads ${SUPPORTED_ENCODINGS}: ` +
      'save the file in one of them and declare that encoding in <?xml version="1.0" encoding="..."?>',
    1,
  );
}

/** How an encoding is named in messages, with what the file declared. */
export function encodingLabel(declaration: Pick<EncodingDeclaration, 'encoding' | 'declared'>): string {
  if (declaration.declared === undefined)
    return declaration.encoding === 'utf-8'
      ? 'the file declares no encoding, so it is read as UTF-8 (the XML default)'
      : `the file is ${declaration.encoding.toUpperCase()} by its first bytes`;
  return `the file declares encoding="${declaration.declared}"`;
}
