import type { Term } from '@triad/erlang-dist';
import { erlangTermText, type ErlangTermTextOptions } from './erlang-term-text.js';

/**
 * A term as words for people, for alarm texts (docs/decisions/0038): text (a binary of UTF-8, a
 * printable charlist) as the text itself, `[]` as nothing, an atom as its name, a number as
 * written; a tuple's parts joined by spaces, a list's and a map's by commas (`key: value`). Pids,
 * ports, references and funs keep the form people know from the shell (`<0.85.0>`); a binary that
 * is not text reads `12 bytes`. Never quotes, braces or `<<...>>`.
 */
export function plainTermText(term: Term, options: ErlangTermTextOptions = {}): string {
  const plain = (t: Term): string => plainTermText(t, options);
  const joined = (parts: readonly Term[], separator: string): string =>
    parts
      .map(plain)
      .filter((p) => p !== '')
      .join(separator);
  switch (term.type) {
    case 'atom':
      return term.name;
    case 'integer':
      return String(term.value);
    case 'float':
      return String(term.value);
    case 'nil':
      return '';
    case 'string':
      return term.value;
    case 'binary': {
      const text = Buffer.from(term.bytes).toString('utf8');
      return isText(text) ? text : `${term.bytes.length} bytes`;
    }
    case 'bitBinary':
      return `${term.bytes.length} bytes`;
    case 'tuple':
      return joined(term.elements, ' ');
    case 'list': {
      const text = term.tail.type === 'nil' ? charList(term.elements) : undefined;
      if (text !== undefined && isText(text)) return text;
      const head = joined(term.elements, ', ');
      return term.tail.type === 'nil' ? head : [head, plain(term.tail)].filter((p) => p !== '').join(', ');
    }
    case 'map':
      return term.entries.map(([k, v]) => `${plain(k)}: ${plain(v)}`).join(', ');
    case 'pid':
    case 'port':
    case 'reference':
    case 'fun':
    case 'export':
      return erlangTermText(term, options);
  }
}

/** The characters of a list of code points, or undefined when an element is not one. */
function charList(elements: readonly Term[]): string | undefined {
  let text = '';
  for (const element of elements) {
    if (element.type !== 'integer' || typeof element.value !== 'number') return undefined;
    if (element.value < 0 || element.value > 0x10ffff) return undefined;
    text += String.fromCodePoint(element.value);
  }
  return text;
}

/** Printable text: no control characters other than tab and line breaks, no replacement characters. */
function isText(text: string): boolean {
  if (text.length === 0) return false;
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    const control = (code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127;
    if (control || code === 0xfffd) return false;
  }
  return true;
}
