import { listElements, tupleOf, type Term } from '@triad/erlang-dist';
import type { NodeRelease } from './node-connector.js';

/** Longest release name or version accepted (a family name holds both and a space). */
const MAX_PART_LENGTH = 127;

/**
 * The release named by the reply to `init:script_id()`: a 2-tuple `{Name, Vsn}` of charlists
 * (a plain `erl` answers `{"Erlang/OTP","25"}`; a release boot script its `{release, Name, Vsn}`
 * name and version). UTF-8 binaries are read as text too. Undefined for anything else (atoms, so
 * `{badrpc, nodedown}` included), for empty parts and for parts longer than 127 characters.
 */
export function releaseFromScriptId(reply: Term): NodeRelease | undefined {
  const parts = tupleOf(reply, 2);
  if (!parts) return undefined;
  const name = textOf(parts[0]!);
  const version = textOf(parts[1]!);
  if (!name?.trim() || !version?.trim() || name.length > MAX_PART_LENGTH || version.length > MAX_PART_LENGTH)
    return undefined;
  return { name, version };
}

/** A charlist or binary as text; undefined for other terms and lists of non-characters. */
function textOf(term: Term): string | undefined {
  if (term.type === 'string') return term.value;
  if (term.type === 'binary') {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(term.bytes);
    } catch {
      return undefined;
    }
  }
  const elements = listElements(term);
  if (!elements) return undefined;
  let text = '';
  for (const element of elements) {
    if (
      element.type !== 'integer' ||
      typeof element.value !== 'number' ||
      element.value < 0 ||
      element.value > 0x10ffff
    )
      return undefined;
    text += String.fromCodePoint(element.value);
  }
  return text;
}
