import { describe, expect, it } from 'vitest';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import { MAX_DOCTYPE_CHARS } from './xml-doctype.js';
import {
  decodeEntities,
  MAX_MARKUP_CHARS,
  UndeclaredEntityError,
  XmlEventReader,
  XmlSyntaxError,
  type XmlEvent,
} from './xml-event-reader.js';

function readAll(chunks: readonly string[]): XmlEvent[] {
  const reader = new XmlEventReader();
  const events = chunks.flatMap((c) => reader.write(c));
  reader.end();
  // Adjacent text events are one text; chunking may split them.
  const merged: XmlEvent[] = [];
  for (const e of events) {
    const last = merged[merged.length - 1];
    if (e.kind === 'text' && last?.kind === 'text')
      merged[merged.length - 1] = { kind: 'text', text: last.text + e.text };
    else merged.push(e);
  }
  return merged;
}

describe('XmlEventReader', () => {
  it('names every element right, a name read again, prefixed or not, and past the names it caches', () => {
    // Names of equal hash ("Aa", "BB") and more names than the reader caches (512).
    const names = ['Aa', 'BB', 'x:Aa', 'AaBB', 'BBAa', ...Array.from({ length: 700 }, (_, i) => `E${i}`)];
    const body = names.map((n) => `<${n}/><${n} k="v"></${n}>`).join('');
    const opened = readAll([`<r>${body}${body}</r>`])
      .filter((e) => e.kind === 'open')
      .map((e) => (e.kind === 'open' ? e.name : ''));
    const local = names.map((n) => n.replace('x:', ''));
    const once = local.flatMap((n) => [n, n]);
    expect(opened).toEqual(['r', ...once, ...once]);
  });

  it('reads elements, attributes, entities, CDATA and line numbers, skipping comments and an external DOCTYPE', () => {
    const events = readAll([
      '<?xml version="1.0"?>\n<!DOCTYPE a SYSTEM "a.dtd">\n' +
        "<a:root k='v &amp; w'>\n<!-- c -->x &lt; y<b/><![CDATA[<raw>]]></a:root>",
    ]);
    expect(events).toEqual(
      [
        { kind: 'open', name: 'root', attributes: { k: 'v & w' }, line: 3, selfClosing: false },
        { kind: 'text', text: '\n' },
        { kind: 'text', text: 'x < y' },
        { kind: 'open', name: 'b', attributes: {}, line: 4, selfClosing: true },
        { kind: 'close', name: 'b', line: 4 },
        { kind: 'text', text: '<raw>' },
        { kind: 'close', name: 'root', line: 4 },
      ].reduce<XmlEvent[]>((acc, e) => {
        const last = acc[acc.length - 1];
        if (e.kind === 'text' && last?.kind === 'text')
          acc[acc.length - 1] = { kind: 'text', text: last.text + e.text };
        else acc.push(e as XmlEvent);
        return acc;
      }, []),
    );
  });

  it('gives the same events however the input is split', () => {
    const whole = readAll([BMECAT_12]);
    for (let at = 1; at < BMECAT_12.length; at += 23) {
      expect(readAll([BMECAT_12.slice(0, at), BMECAT_12.slice(at)]), `split at ${at}`).toEqual(whole);
    }
  });

  it('reports unclosed elements and broken tags with their line', () => {
    expect(() => readAll(['<a>\n<b></b>'])).toThrow(XmlSyntaxError);
    expect(() => readAll(['<a>\n<b <c></a>'])).toThrow(/line 2/);
  });

  it('decodes numeric character references and the five entities, and refuses any other entity', () => {
    expect(decodeEntities('&#65;&#x42;&amp;&lt;&quot; & co')).toBe('AB&<" & co');
    expect(() => decodeEntities('a &nbsp;')).toThrow(UndeclaredEntityError);
  });

  describe('a DOCTYPE with an internal subset', () => {
    const udx =
      '<?xml version="1.0"?>\n<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd" [\n' +
      '  <!-- UDX of this supplier -->\n' +
      '  <!ENTITY % USERDEFINES "(UDX.EDXF.X?, UDX.EDXF.Y*)">\n' +
      '  <!ELEMENT UDX.EDXF.X (#PCDATA)>\n' +
      '  <!ELEMENT USER_DEFINED_EXTENSIONS (UDX.EDXF.X?)>\n' +
      '  <?tool keep?>\n' +
      "  <!ATTLIST UDX.EDXF.X unit CDATA \"mm ]> <!ENTITY no 'x'>\" kind (a|b) 'a'>\n" +
      '  <!NOTATION gif SYSTEM "image/gif">\n' +
      ']>\n<BMECAT><UDX.EDXF.X unit="cm">5</UDX.EDXF.X></BMECAT>';
    const events: XmlEvent[] = [
      { kind: 'open', name: 'BMECAT', attributes: {}, line: 11, selfClosing: false },
      { kind: 'open', name: 'UDX.EDXF.X', attributes: { unit: 'cm' }, line: 11, selfClosing: false },
      { kind: 'text', text: '5' },
      { kind: 'close', name: 'UDX.EDXF.X', line: 11 },
      { kind: 'close', name: 'BMECAT', line: 11 },
    ];

    it('skips ELEMENT, ATTLIST, NOTATION and USERDEFINES declarations, comments, instructions, wherever cut', () => {
      expect(readAll([udx])).toEqual(events);
      for (let at = 1; at < udx.length; at += 1)
        expect(readAll([udx.slice(0, at), udx.slice(at)]), `${at}`).toEqual(events);
    });

    /** The document with `declaration` in the subset, on line 3. */
    const withDeclaration = (declaration: string) =>
      `<?xml version="1.0"?>\n<!DOCTYPE BMECAT SYSTEM "b.dtd" [\n<!ELEMENT A (#PCDATA)>${declaration}\n]>\n<BMECAT/>`;

    it.each([
      [
        'an internal general entity',
        '<!ENTITY x "y">',
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY x "y"...>\): Triad does not expand entities, for safety/,
      ],
      ['an external entity', '<!ENTITY x SYSTEM "file:///etc/passwd">', /^line 3: the DOCTYPE declares an entity/],
      [
        'a parameter entity',
        '<!ENTITY % p "<!ENTITY y \'z\'>">',
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY % p/,
      ],
      [
        'an external parameter entity',
        '<!ENTITY % p SYSTEM "http://127.0.0.1/udx.dtd">',
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY % p SYSTEM/,
      ],
      [
        'a parameter entity whose value refers to another',
        '<!ENTITY % USERDEFINES "(%q;)">',
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY % USERDEFINES/,
      ],
      [
        'a general entity whose value looks like a content model',
        '<!ENTITY USERDEFINES "(UDX.A?)">',
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY USERDEFINES/,
      ],
      [
        'a parameter entity reference',
        '%p;',
        /^line 3: the DOCTYPE's internal subset refers to the parameter entity %p;/,
      ],
      [
        'a conditional section',
        '<![INCLUDE[<!ELEMENT B ANY>]]>',
        /^line 3: the DOCTYPE's internal subset holds a conditional section/,
      ],
      ['text', 'hello', /^line 3: the DOCTYPE's internal subset holds "hello", which is none of <!ELEMENT/],
    ])('refuses %s in the subset with its line and why, wherever the chunks end', (_, declaration, message) => {
      const xml = withDeclaration(declaration);
      expect(() => readAll([xml])).toThrow(message);
      for (let at = 1; at < xml.length; at += 1)
        expect(() => readAll([xml.slice(0, at), xml.slice(at)]), `${at}`).toThrow(message);
    });

    it('refuses an entity declaration even after a comment or literal that looks like the end of the subset', () => {
      expect(() => readAll([withDeclaration('<!-- ]> --><!ENTITY x "y">')])).toThrow(
        /^line 3: the DOCTYPE declares an entity/,
      );
      expect(() => readAll([withDeclaration('<!ATTLIST A b CDATA "]>"><!ENTITY x "y">')])).toThrow(
        /^line 3: the DOCTYPE declares an entity/,
      );
    });

    it('reads a long subset and refuses one longer than MAX_DOCTYPE_CHARS, without holding more', () => {
      const declaration = '<!ELEMENT UDX.X (#PCDATA)>\n';
      const long = withDeclaration(declaration.repeat(Math.floor((MAX_DOCTYPE_CHARS - 200) / declaration.length)));
      const chunks = (text: string) =>
        Array.from({ length: Math.ceil(text.length / 65_536) }, (_, i) => text.slice(i * 65_536, (i + 1) * 65_536));
      expect(readAll(chunks(long))).toHaveLength(2);
      const tooLong = withDeclaration(declaration.repeat(Math.ceil(10_000_000 / declaration.length)));
      expect(() => readAll(chunks(tooLong))).toThrow(
        /^line 2: the DOCTYPE is longer than 1048576 characters, the most Triad reads .*: shorten its internal subset/,
      );
    });
  });

  it('refuses an ENTITY declaration outside a DOCTYPE, with its line', () => {
    expect(() => readAll(['<a>\n<!ENTITY x "y">\n</a>'])).toThrow(
      /^line 2: an entity declaration \(<!ENTITY \.\.\.>\): Triad does not expand entities, for safety .*; remove it$/,
    );
  });

  it('refuses a reference to an undeclared entity in text or attribute, with its line', () => {
    expect(() => readAll(['<a>\n<b>x</b>\ny\n&nbsp;</a>'])).toThrow(/^line 4: entity reference &nbsp; is not one of/);
    expect(() => readAll(['<a>\n<b k="&e;"/></a>'])).toThrow(/^line 2: entity reference &e; /);
  });

  it('refuses characters XML 1.0 does not allow, raw or as references, with their line and column', () => {
    for (const [xml, line, column, what] of [
      ['<a>\n  x&#0;</a>', 2, 4, 'U+0000'],
      ['<a>\n<b k="&#x1;"/></a>', 2, 7, 'U+0001'],
      ['<a>&#xD800;</a>', 1, 4, 'U+D800'],
      ['<a>&#xFFFE;</a>', 1, 4, 'U+FFFE'],
      ['<a>&#99999999;</a>', 1, 4, 'a number beyond Unicode'],
      ['<a>\nab\u0001</a>', 2, 3, 'U+0001'],
      ['<a>\u000c</a>', 1, 4, 'U+000C'],
    ] as const) {
      let thrown: unknown;
      try {
        readAll([xml]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, xml).toBeInstanceOf(XmlSyntaxError);
      expect(thrown, xml).toMatchObject({ line, column });
      expect((thrown as Error).message, xml).toContain(what);
    }
    // Allowed ones are decoded.
    expect(decodeEntities('&#x9;&#xA;&#xD;&#x20;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;')).toBe(
      '\t\n\r \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}',
    );
  });

  it('reads long comments and CDATA on without holding them, and refuses a tag longer than the limit', () => {
    const long = 'y'.repeat(3 * MAX_MARKUP_CHARS);
    const reader = new XmlEventReader();
    let text = '';
    const handler = { open() {}, close() {}, text: (t: string) => void (text += t) };
    reader.feed('<a><!--', handler);
    for (let i = 0; i < 10; i += 1) reader.feed(long, handler);
    reader.feed('--><![CDATA[', handler);
    for (let i = 0; i < 10; i += 1) {
      reader.feed(long, handler);
      expect(reader.pending.length).toBeLessThan(3);
    }
    reader.feed(']]></a>', handler);
    reader.end();
    expect(text).toBe(long.repeat(10));
    expect(() => readAll([`<a>\n<b k="${long}"/></a>`])).toThrow(/^line 2: a tag longer than 65536 characters/);
  });
});
