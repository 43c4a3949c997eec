import { describe, expect, it } from 'vitest';
import { CatalogEncodingError, readEncodingDeclaration } from './xml-encoding.js';

const declaration = (encoding: string) => Buffer.from(`<?xml version="1.0" encoding="${encoding}"?>\n<BMECAT/>`);

describe('readEncodingDeclaration', () => {
  it.each([
    ['UTF-8', 'utf-8'],
    ['utf8', 'utf-8'],
    ['ISO-8859-1', 'windows-1252'],
    ['iso_8859-1', 'windows-1252'],
    ['Latin1', 'windows-1252'],
    ['WINDOWS-1252', 'windows-1252'],
    ['cp1252', 'windows-1252'],
    ['ISO-8859-15', 'iso-8859-15'],
    ['latin-9', 'iso-8859-15'],
    ['US-ASCII', 'us-ascii'],
    ['ascii', 'us-ascii'],
  ])('reads encoding="%s" as %s', (declared, encoding) => {
    expect(readEncodingDeclaration(declaration(declared), true)).toEqual({ encoding, declared, bomBytes: 0 });
  });

  it('reads byte order marks, and UTF-16 without one by its first characters', () => {
    expect(readEncodingDeclaration(Buffer.from([0xef, 0xbb, 0xbf, 0x3c, 0x41]), true)).toMatchObject({
      encoding: 'utf-8',
      bomBytes: 3,
    });
    expect(readEncodingDeclaration(Buffer.from('\uFEFF<A/>', 'utf16le'), true)).toMatchObject({
      encoding: 'utf-16le',
      bomBytes: 2,
    });
    expect(readEncodingDeclaration(Buffer.from('\uFEFF<A/>', 'utf16le').swap16(), true)).toMatchObject({
      encoding: 'utf-16be',
      bomBytes: 2,
    });
    expect(readEncodingDeclaration(Buffer.from('<?xml version="1.0"?><A/>', 'utf16le'), true)).toMatchObject({
      encoding: 'utf-16le',
      bomBytes: 0,
    });
    expect(readEncodingDeclaration(Buffer.from('<A/>'), true)).toEqual({
      encoding: 'utf-8',
      declared: undefined,
      bomBytes: 0,
    });
  });

  it('waits for the end of a declaration cut by the chunk end', () => {
    const bytes = declaration('ISO-8859-15');
    expect(readEncodingDeclaration(bytes.subarray(0, 3), false)).toBeUndefined();
    expect(readEncodingDeclaration(bytes.subarray(0, 30), false)).toBeUndefined();
    expect(readEncodingDeclaration(bytes.subarray(0, 30), true)).toMatchObject({ encoding: 'utf-8' });
    expect(readEncodingDeclaration(bytes, false)).toMatchObject({ encoding: 'iso-8859-15' });
  });

  it('refuses an encoding it does not read, naming it and the ones it reads', () => {
    expect(() => readEncodingDeclaration(declaration('EBCDIC-CP-DE'), true)).toThrow(
      new CatalogEncodingError(
        'the file declares encoding="EBCDIC-CP-DE", which Triad does not read; it reads UTF-8, UTF-16 (with a byte ' +
          'order mark), ISO-8859-1 (Latin-1), ISO-8859-15 (Latin-9), Windows-1252 and US-ASCII: save the file in ' +
          'one of them and declare that encoding in <?xml version="1.0" encoding="..."?>',
        1,
      ),
    );
  });

  it('refuses a declaration its bytes contradict', () => {
    expect(() =>
      readEncodingDeclaration(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), declaration('latin1')]), true),
    ).toThrow(/starts with a UTF-8 byte order mark but declares encoding="latin1"/);
    expect(() => readEncodingDeclaration(declaration('UTF-16'), true)).toThrow(
      /declares encoding="UTF-16" but its bytes are not UTF-16/,
    );
    expect(() =>
      readEncodingDeclaration(Buffer.from('\uFEFF<?xml version="1.0" encoding="ISO-8859-1"?>', 'utf16le'), true),
    ).toThrow(/the file is UTF-16 \(it starts with a UTF-16 byte order mark\) but declares encoding="ISO-8859-1"/);
  });
});
