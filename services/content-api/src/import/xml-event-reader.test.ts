import { describe, expect, it } from 'vitest';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import {
  decodeEntities,
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

  it('refuses a DOCTYPE with declarations, with its line and why', () => {
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE a [\n<!ENTITY x "y">\n]>\n<a>&x;</a>';
    expect(() => readAll([xml])).toThrow(
      new XmlSyntaxError(
        'a DOCTYPE with declarations ([...]): DTDs and entities are not processed; remove the declaration',
        2,
      ),
    );
    // The same wherever the chunks end.
    for (let at = 1; at < 40; at += 1)
      expect(() => readAll([xml.slice(0, at), xml.slice(at)]), `${at}`).toThrow(/^line 2: a DOCTYPE/);
  });

  it('refuses an ENTITY declaration outside a DOCTYPE, with its line', () => {
    expect(() => readAll(['<a>\n<!ENTITY x "y">\n</a>'])).toThrow(
      /^line 2: an ENTITY declaration: DTDs and entities are not processed; remove the declaration$/,
    );
  });

  it('refuses a reference to an undeclared entity in text or attribute, with its line', () => {
    expect(() => readAll(['<a>\n<b>x</b>\ny\n&nbsp;</a>'])).toThrow(/^line 4: entity reference &nbsp; is not one of/);
    expect(() => readAll(['<a>\n<b k="&e;"/></a>'])).toThrow(/^line 2: entity reference &e; /);
  });
});
