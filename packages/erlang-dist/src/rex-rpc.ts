import { control } from './control-message.js';
import { atom, list, tuple, type PidTerm, type ReferenceTerm, type Term } from './term.js';

export interface RexCall {
  readonly module: string;
  readonly function: string;
  readonly args: readonly Term[];
  /** Group leader for the call on the remote node; default the atom `user` (remote console). */
  readonly groupLeader?: Term;
}

/**
 * The gen_server form of an RPC through `rex` (reference §5): control REG_SEND from `from` to `rex`
 * and message `{'$gen_call', {From, Ref}, {call, M, F, A, GroupLeader}}`. The reply arrives as a
 * SEND to `from` with message `{Ref, Reply}`; match it with `matchRexReply`.
 */
export function rexCallMessage(from: PidTerm, ref: ReferenceTerm, call: RexCall): { control: Term; message: Term } {
  return {
    control: control.regSend(from, 'rex'),
    message: tuple(atom('$gen_call'), tuple(from, ref), callTuple(call)),
  };
}

/**
 * The C-node form (what erl_interface's ei_rpc sends): message `{From, {call, M, F, A, GroupLeader}}`;
 * the reply is `{rex, Reply}` with no correlation, so give each outstanding call its own pid.
 */
export function rexCNodeCallMessage(from: PidTerm, call: RexCall): { control: Term; message: Term } {
  return { control: control.regSend(from, 'rex'), message: tuple(from, callTuple(call)) };
}

function callTuple(call: RexCall): Term {
  return tuple(
    atom('call'),
    atom(call.module),
    atom(call.function),
    list([...call.args]),
    call.groupLeader ?? atom('user'),
  );
}

/** `{Ref, Reply}` -> the reference and reply; undefined for any other message. */
export function matchRexReply(message: Term): { ref: ReferenceTerm; reply: Term } | undefined {
  if (message.type !== 'tuple' || message.elements.length !== 2) return undefined;
  const [ref, reply] = message.elements;
  return ref!.type === 'reference' ? { ref, reply: reply! } : undefined;
}

/** `{rex, Reply}` (C-node form) -> the reply; undefined otherwise. */
export function matchRexCNodeReply(message: Term): Term | undefined {
  if (message.type !== 'tuple' || message.elements.length !== 2) return undefined;
  const [tag, reply] = message.elements;
  return tag!.type === 'atom' && tag.name === 'rex' ? reply : undefined;
}

/** The reason of a `{badrpc, Reason}` reply; undefined when the reply is a normal value. */
export function badRpcReason(reply: Term): Term | undefined {
  if (reply.type !== 'tuple' || reply.elements.length !== 2) return undefined;
  const [tag, reason] = reply.elements;
  return tag!.type === 'atom' && tag.name === 'badrpc' ? reason : undefined;
}

/** True when two references are the same (node, creation and ids). */
export function sameReference(a: ReferenceTerm, b: ReferenceTerm): boolean {
  return (
    a.node === b.node &&
    a.creation === b.creation &&
    a.ids.length === b.ids.length &&
    a.ids.every((x, i) => x === b.ids[i])
  );
}

/** A key for maps of outstanding calls, equal exactly when `sameReference` is true. */
export function referenceKey(ref: ReferenceTerm): string {
  return `${ref.node}/${ref.creation}/${ref.ids.join('.')}`;
}
