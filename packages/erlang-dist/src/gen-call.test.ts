import { describe, expect, it } from 'vitest';
import { ControlOp, decodeDistPayload, encodeDistFrame } from './control-message.js';
import { genCallAlias, genReply, matchGenCall } from './gen-call.js';
import { atom, int, list, pid, reference, tuple } from './term.js';

const caller = pid('n1@127.0.0.1', 88, 0, 7);
const me = pid('wombat@127.0.0.1', 1, 1, 9);
const ref = reference('n1@127.0.0.1', 7, [1, 2, 3]);
const aliasTag = list([atom('alias')], ref);
const request = tuple(atom('auto_discover_node'), atom('n1@127.0.0.1'), atom('c'));

describe('gen:call messages', () => {
  it('matches {$gen_call, {From, Tag}, Request} and nothing else', () => {
    expect(matchGenCall(tuple(atom('$gen_call'), tuple(caller, aliasTag), request))).toEqual({
      from: caller,
      tag: aliasTag,
      request,
    });
    expect(matchGenCall(tuple(atom('$gen_cast'), request))).toBeUndefined();
    expect(matchGenCall(tuple(atom('$gen_call'), tuple(atom('x'), ref), request))).toBeUndefined();
    expect(matchGenCall(int(1))).toBeUndefined();
  });

  it('finds the alias of an OTP 24+ tag and none in a plain reference', () => {
    expect(genCallAlias(aliasTag)).toEqual(ref);
    expect(genCallAlias(ref)).toBeUndefined();
  });

  it('replies {Tag, Reply} to the alias when aliases were negotiated, else to the pid', () => {
    const call = { from: caller, tag: aliasTag, request };
    const viaAlias = genReply(call, atom('ok'), { self: me, aliases: true });
    expect(viaAlias.control).toEqual(tuple(int(ControlOp.ALIAS_SEND), me, ref));
    expect(viaAlias.message).toEqual(tuple(aliasTag, atom('ok')));
    const viaPid = genReply(call, atom('ok'), { self: me, aliases: false });
    expect(viaPid.control).toEqual(tuple(int(ControlOp.SEND), atom(''), caller));
    const plain = genReply({ ...call, tag: ref }, atom('yes'), { self: me, aliases: true });
    expect(plain.control).toEqual(tuple(int(ControlOp.SEND), atom(''), caller));
    // Round trip through the wire form.
    const frame = encodeDistFrame(viaAlias.control, viaAlias.message);
    expect(decodeDistPayload(frame.subarray(4))).toEqual({ control: viaAlias.control, message: viaAlias.message });
  });
});
