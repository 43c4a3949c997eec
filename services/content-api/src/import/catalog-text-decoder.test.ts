import { describe, expect, it } from 'vitest';
import { CatalogTextDecoder, decodePiece, encodeSingleByte } from './catalog-text-decoder.js';
import { CatalogEncodingError } from './xml-encoding.js';

const TEXT = 'Höhe 20 mm\nOberfläche: Weiß, 12 €';

/** `TEXT` in a file declaring `declared`, written by `encode`. */
function file(declared: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<?xml version="1.0" encoding="${declared}"?>\n<A>`), body, Buffer.from('</A>')]);
}

/** Single-byte bytes of `text`, from a table of the bytes that differ from Latin-1. */
function singleByte(text: string, table: Readonly<Record<string, number>>): Buffer {
  return Buffer.from(Array.from(text, (c) => table[c] ?? c.charCodeAt(0)));
}

function utf16(text: string, order: 'le' | 'be', bom = true): Buffer {
  const bytes = Buffer.from((bom ? '\uFEFF' : '') + text, 'utf16le');
  return order === 'be' ? bytes.swap16() : bytes;
}

/** Decodes `bytes` fed in two chunks cut at `cut`. */
function decode(bytes: Uint8Array, cut: number, format: 'xml' | 'json-lines' = 'xml'): string {
  const decoder = new CatalogTextDecoder(format);
  return decoder.write(bytes.subarray(0, cut)) + decoder.write(bytes.subarray(cut)) + decoder.end();
}

function refusal(run: () => unknown): CatalogEncodingError {
  try {
    run();
  } catch (error) {
    if (error instanceof CatalogEncodingError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const expected = `<?xml version="1.0" encoding="X"?>\n<A>${TEXT}</A>`;

describe('CatalogTextDecoder', () => {
  const files: readonly (readonly [string, string, Buffer])[] = [
    ['UTF-8', 'UTF-8', file('UTF-8', Buffer.from(TEXT))],
    [
      'UTF-8 with a byte order mark',
      'utf-8',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file('utf-8', Buffer.from(TEXT))]),
    ],
    ['ISO-8859-1 (euro as Windows-1252 0x80)', 'ISO-8859-1', file('ISO-8859-1', singleByte(TEXT, { '€': 0x80 }))],
    ['latin1', 'latin1', file('latin1', singleByte(TEXT, { '€': 0x80 }))],
    ['ISO-8859-15', 'iso-8859-15', file('iso-8859-15', singleByte(TEXT, { '€': 0xa4 }))],
    ['Windows-1252', 'Windows-1252', file('Windows-1252', singleByte(TEXT, { '€': 0x80 }))],
    ['cp1252', 'CP1252', file('CP1252', singleByte(TEXT, { '€': 0x80 }))],
    ['UTF-16 LE', 'UTF-16', utf16(`<?xml version="1.0" encoding="UTF-16"?>\n<A>${TEXT}</A>`, 'le')],
    ['UTF-16 BE', 'UTF-16', utf16(`<?xml version="1.0" encoding="UTF-16"?>\n<A>${TEXT}</A>`, 'be')],
    [
      'UTF-16 LE without a byte order mark',
      'UTF-16',
      utf16(`<?xml version="1.0" encoding="UTF-16"?>\n<A>${TEXT}</A>`, 'le', false),
    ],
  ];
  for (const [name, declared, bytes] of files)
    it(`reads ${name} cut at every offset`, () => {
      const want = expected.replace('"X"', `"${declared}"`);
      for (let cut = 0; cut <= bytes.length; cut += 1) expect(decode(bytes, cut)).toBe(want);
    });

  it('reads a file without a declaration as UTF-8', () => {
    expect(decode(Buffer.from(`<A>${TEXT}</A>`), 3)).toBe(`<A>${TEXT}</A>`);
  });

  it('refuses invalid UTF-8 with its line and column, naming the declaration and how to fix it', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `<L>${i}</L>`).join('\n');
    const bytes = Buffer.concat([
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${lines}\n<B>H`),
      Buffer.from([0xe4]),
      Buffer.from('he</B>'),
    ]);
    for (const cut of [0, 20, bytes.length - 7, bytes.length - 6, bytes.length - 5]) {
      const error = refusal(() => decode(bytes, cut));
      expect(error.line).toBe(12);
      expect(error.column).toBe(5);
      expect(error.message).toBe(
        'line 12, column 5: byte 0xE4 is not valid UTF-8 (in ISO-8859-1 or Windows-1252 it would be "ä"); ' +
          'the file declares encoding="UTF-8": save it as UTF-8 or declare its real encoding, ' +
          'e.g. <?xml version="1.0" encoding="ISO-8859-1"?> (the file is not imported)',
      );
    }
  });

  it('says a file without a declaration is read as UTF-8', () => {
    expect(refusal(() => decode(Buffer.from([0x3c, 0x41, 0x3e, 0xfc]), 2)).message).toContain(
      'byte 0xFC is not valid UTF-8 (in ISO-8859-1 or Windows-1252 it would be "ü"); the file declares no ' +
        'encoding, so it is read as UTF-8 (the XML default)',
    );
  });

  it.each([
    ['overlong', [0xc0, 0xaf], 0xc0],
    ['a surrogate', [0xed, 0xa0, 0x80], 0xed],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0xf4],
    ['a lone continuation byte', [0x80], 0x80],
  ])('refuses UTF-8 that is %s', (_, bad, first) => {
    const error = refusal(() =>
      decode(Buffer.concat([Buffer.from('<A>ok\nab'), Buffer.from(bad), Buffer.from('</A>')]), 1),
    );
    expect([error.line, error.column]).toEqual([2, 3]);
    expect(error.reason).toContain(`byte 0x${first.toString(16).toUpperCase()} is not valid UTF-8`);
  });

  it('refuses a file that ends inside a character', () => {
    expect(refusal(() => decode(Buffer.from([0x3c, 0x41, 0x3e, 0xc3]), 4)).reason).toContain(
      'byte 0xC3 is not valid UTF-8',
    );
    const cut = utf16('<?xml version="1.0"?><A>x</A>', 'le').subarray(0, -1);
    expect(refusal(() => decode(cut, 5)).reason).toContain('the file ends in the middle of a UTF-16 character');
  });

  it('refuses a byte Windows-1252 leaves unassigned, also under the name ISO-8859-1', () => {
    for (const declared of ['windows-1252', 'ISO-8859-1']) {
      const error = refusal(() => decode(file(declared, Buffer.from([0x41, 0x0a, 0x42, 0x81])), 10));
      expect([error.line, error.column]).toEqual([3, 2]);
      expect(error.reason).toContain('byte 0x81 is no character in Windows-1252');
      expect(error.reason).toContain(`the file declares encoding="${declared}"`);
    }
  });

  it('refuses the C1 control bytes of ISO-8859-15 and non-ASCII bytes of US-ASCII', () => {
    expect(refusal(() => decode(file('ISO-8859-15', Buffer.from([0x80])), 3)).reason).toContain(
      'byte 0x80 is a control character in ISO-8859-15, not text (the euro sign is 0xA4 in ISO-8859-15',
    );
    expect(refusal(() => decode(file('us-ascii', Buffer.from([0xe4])), 3)).reason).toContain(
      'byte 0xE4 is not US-ASCII, which ends at 0x7F; the file declares encoding="us-ascii"',
    );
  });

  it('refuses a UTF-16 surrogate without its other half', () => {
    const bytes = utf16('<?xml version="1.0" encoding="UTF-16"?>\n<A>x\uD800y</A>', 'be');
    const error = refusal(() => decode(bytes, 50));
    expect([error.line, error.column]).toEqual([2, 5]);
    expect(error.reason).toContain('the UTF-16 code unit 0xD800 is half of a character');
  });

  it('reads JSON Lines as UTF-8 only, whatever a line says', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"x"}\n{"a":"'), Buffer.from([0xe4]), Buffer.from('"}\n')]);
    const error = refusal(() => decode(bytes, 12, 'json-lines'));
    expect([error.line, error.column]).toEqual([2, 7]);
    expect(error.reason).toContain('JSON Lines files are UTF-8 (RFC 8259): save the file as UTF-8');
    expect(decode(Buffer.from('<?xml version="1.0" encoding="latin1"?>ä'), 3, 'json-lines')).toBe(
      '<?xml version="1.0" encoding="latin1"?>ä',
    );
  });
});

describe('decodePiece', () => {
  it('counts lines from the piece and gives a column on its first line only when told where it starts', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x0a]);
    expect([
      refusal(() => decodePiece(bytes, 'json-lines')).line,
      refusal(() => decodePiece(bytes, 'json-lines')).column,
    ]).toEqual([1, undefined]);
    expect(refusal(() => decodePiece(bytes, 'json-lines', 0)).column).toBe(2);
    expect(
      refusal(() => decodePiece(Buffer.from('a\n\nbc\xff', 'latin1'), { encoding: 'utf-8', declared: 'UTF-8' })),
    ).toMatchObject({ line: 3, column: 3 });
  });
});

describe('encodeSingleByte', () => {
  it('gives back the bytes a single-byte text was decoded from', () => {
    for (const [encoding, euro] of [
      ['windows-1252', 0x80],
      ['iso-8859-15', 0xa4],
    ] as const) {
      const bytes = singleByte(TEXT, { '€': euro });
      expect(encodeSingleByte(decodePiece(bytes, { encoding, declared: encoding }), encoding)).toEqual(bytes);
    }
  });
});
