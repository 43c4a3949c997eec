import type { Term } from '@triad/erlang-dist';
import { erlangAtom, erlangString } from '../model/erlang-terms.js';

/** Options of `erlangTermText`. */
export interface ErlangTermTextOptions {
  /** The node the term came from: its own pids and ports print as `<0.N.S>`, like the node prints them. */
  readonly localNode?: string;
}

/**
 * A term as `io_lib:format("~p", [Term])` prints it on one line: atoms quoted when needed,
 * printable lists (Latin-1 printable characters) as `"..."`, printable binaries as `<<"...">>`,
 * others as `<<1,2,3>>`, maps as `#{k => v}`. Terms longer than 80 columns are not wrapped (the
 * pretty printer would break them across lines); pids of other nodes print with the node name in
 * place of the node index, which only the printing node knows.
 */
export function erlangTermText(term: Term, options: ErlangTermTextOptions = {}): string {
  const print = (t: Term): string => erlangTermText(t, options);
  switch (term.type) {
    case 'atom':
      return erlangAtom(term.name);
    case 'integer':
      return String(term.value);
    case 'float':
      return floatText(term.value);
    case 'tuple':
      return `{${term.elements.map(print).join(',')}}`;
    case 'nil':
      return '[]';
    case 'string':
      return printableText(term.value)
        ? erlangString(term.value)
        : `[${Array.from(term.value, (c) => c.charCodeAt(0)).join(',')}]`;
    case 'list': {
      const codes = term.tail.type === 'nil' ? charCodes(term.elements) : undefined;
      if (codes !== undefined && printableText(codes)) return erlangString(codes);
      const head = term.elements.map(print).join(',');
      return term.tail.type === 'nil' ? `[${head}]` : `[${head}|${print(term.tail)}]`;
    }
    case 'map':
      return `#{${term.entries.map(([k, v]) => `${print(k)} => ${print(v)}`).join(',')}}`;
    case 'binary': {
      const text = Buffer.from(term.bytes).toString('latin1');
      return term.bytes.length > 0 && printableText(text)
        ? `<<${erlangString(text)}>>`
        : `<<${Array.from(term.bytes).join(',')}>>`;
    }
    case 'bitBinary': {
      const whole = Array.from(term.bytes.subarray(0, -1));
      const last = term.bytes[term.bytes.length - 1] ?? 0;
      return `<<${[...whole.map(String), `${last >> (8 - term.bits)}:${term.bits}`].join(',')}>>`;
    }
    case 'pid':
      return `<${nodePart(term.node, options)}.${term.id}.${term.serial}>`;
    case 'port':
      return `#Port<${nodePart(term.node, options)}.${term.id}>`;
    case 'reference':
      return `#Ref<${nodePart(term.node, options)}.${[...term.ids].reverse().join('.')}>`;
    case 'fun':
      return `#Fun<${term.module}.${term.index}.${term.oldUniq}>`;
    case 'export':
      return `fun ${erlangAtom(term.module)}:${erlangAtom(term.function)}/${term.arity}`;
  }
}

function nodePart(node: string, options: ErlangTermTextOptions): string {
  return node === options.localNode ? '0' : erlangAtom(node);
}

/** The characters of a list of small integers, or undefined when an element is not one. */
function charCodes(elements: readonly Term[]): string | undefined {
  let text = '';
  for (const element of elements) {
    if (element.type !== 'integer' || typeof element.value !== 'number' || element.value < 0 || element.value > 255)
      return undefined;
    text += String.fromCharCode(element.value);
  }
  return text;
}

/** Latin-1 printable, as `io_lib:printable_list/1` with the default `+pc latin1`. */
function printableText(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const printable = (c >= 32 && c <= 126) || (c >= 160 && c <= 255) || (c >= 8 && c <= 13) || c === 27;
    if (!printable) return false;
  }
  return true;
}

/** Erlang prints floats in the shortest form that reads back, always with a `.` (`1.0`, `0.1`, `1.0e20`). */
function floatText(value: number): string {
  const text = String(value);
  if (/e/.test(text)) {
    const [mantissa, exponent] = text.split('e');
    return `${mantissa!.includes('.') ? mantissa : `${mantissa}.0`}e${exponent!.replace('+', '')}`;
  }
  return text.includes('.') ? text : `${text}.0`;
}
