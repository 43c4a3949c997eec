import { control } from './control-message.js';
import { isAtom, tuple, tupleOf, type PidTerm, type ReferenceTerm, type Term } from './term.js';

/** A `gen:call` request as it arrives: `{'$gen_call', {From, Tag}, Request}`. */
export interface GenCall {
  /** The calling process. */
  readonly from: PidTerm;
  /** The caller's tag: a reference, or `[alias | Ref]` on OTP 24+ (then `Ref` is also a process alias). */
  readonly tag: Term;
  readonly request: Term;
}

/** The `gen:call` in `message`, or undefined when the message is something else. */
export function matchGenCall(message: Term): GenCall | undefined {
  const outer = tupleOf(message, 3);
  if (!outer || !isAtom(outer[0], '$gen_call')) return undefined;
  const from = tupleOf(outer[1], 2);
  const pid = from?.[0];
  if (pid?.type !== 'pid' || from?.[1] === undefined) return undefined;
  return { from: pid, tag: from[1], request: outer[2]! };
}

/** The alias of an OTP 24+ tag `[alias | Ref]`; undefined for a plain reference tag. */
export function genCallAlias(tag: Term): ReferenceTerm | undefined {
  if (tag.type !== 'list' || tag.elements.length !== 1 || !isAtom(tag.elements[0], 'alias')) return undefined;
  return tag.tail.type === 'reference' ? tag.tail : undefined;
}

/**
 * The reply to `call`, `{Tag, Reply}`, as `gen:reply` sends it: to the alias of an `[alias | Ref]`
 * tag when aliases were negotiated (a late reply to a caller that gave up is then dropped by the
 * caller's node), else to the calling pid. `self` is the pid the reply comes from (ALIAS_SEND
 * names a sender). Pair control and message in `encodeDistFrame`.
 */
export function genReply(
  call: GenCall,
  reply: Term,
  options: { readonly self: PidTerm; readonly aliases: boolean },
): { readonly control: Term; readonly message: Term } {
  const alias = options.aliases ? genCallAlias(call.tag) : undefined;
  return {
    control: alias ? control.aliasSend(options.self, alias) : control.send(call.from),
    message: tuple(call.tag, reply),
  };
}
