import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { control, decodeDistPayload, encodeDistFrame, parseControlMessage } from './control-message.js';
import { FrameDecoder } from './frame-decoder.js';
import { NodeIdentity } from './node-identity.js';
import {
  badRpcReason,
  matchRexCNodeReply,
  matchRexReply,
  referenceKey,
  rexCallMessage,
  rexCNodeCallMessage,
  sameReference,
} from './rex-rpc.js';
import { atom, int, NIL, pid, reference, string, tuple, type Term } from './term.js';
import { encodeTerm } from './term-encoder.js';
import { toHex } from './test-support/hex.js';

const us = pid('wts@127.0.0.1', 1, 0, 0x12345678);
const them = pid('t1@127.0.0.1', 90, 0, 7);
const ref = reference('wts@127.0.0.1', 0x12345678, [1, 2, 3]);

function payload(frame: Uint8Array): Uint8Array {
  const d = new FrameDecoder({ headerBytes: 4 });
  d.push(frame);
  const f = d.pull();
  if (f?.type !== 'data') throw new Error('no data frame');
  return f.payload;
}

describe('pass-through messages', () => {
  it('frames REG_SEND to rex as the reference shows: p, 131 control, 131 message', () => {
    const frame = encodeDistFrame(control.regSend(us, 'rex'), atom('hi'));
    const hex = toHex(frame);
    // [len] 70 | 83 68 04 61 06 <NEW_PID us> 77 00 77 03 'rex' | 83 ...
    expect(hex.slice(8, 20)).toBe('708368046106');
    expect(hex).toContain(toHex(encodeTerm(us)).slice(2) + '77007703726578' + '83' + '7702');
    expect(new DataView(frame.buffer).getUint32(0)).toBe(frame.length - 4);
  });

  it('decodes the SEND prefix an OTP 25 node sent and parses it as send', () => {
    const frame = encodeDistFrame(control.send(us), tuple(atom('rex'), NIL));
    expect(toHex(frame).slice(8, 26)).toBe('708368036102770058');
    const parsed = parseControlMessage(decodeDistPayload(payload(frame)));
    expect(parsed).toEqual({ op: 'send', to: us, message: tuple(atom('rex'), NIL) });
  });

  it.each<[string, Term, Term | undefined, string]>([
    ['LINK', control.link(us, them), undefined, 'link'],
    ['EXIT', control.exit(them, us, atom('normal')), undefined, 'exit'],
    ['EXIT2', control.exit2(them, us, atom('kill')), undefined, 'exit2'],
    ['MONITOR_P', control.monitor(us, atom('rex'), ref), undefined, 'monitor'],
    ['DEMONITOR_P', control.demonitor(us, them, ref), undefined, 'demonitor'],
    ['MONITOR_P_EXIT', control.monitorExit(them, us, ref, atom('noproc')), undefined, 'monitorExit'],
    ['UNLINK_ID_ACK', control.unlinkIdAck(int(5), us, them), undefined, 'unlinkIdAck'],
    ['SEND_SENDER', tuple(int(22), them, us), atom('m'), 'sendSender'],
    ['SEND_TT', tuple(int(12), atom(''), us, atom('token')), atom('m'), 'send'],
    ['UNLINK_ID', tuple(int(35), int(9), them, us), undefined, 'unlinkId'],
  ])('round-trips %s through a frame and parses it', (_name, ctl, msg, op) => {
    const decoded = decodeDistPayload(payload(encodeDistFrame(ctl, msg)));
    expect(decoded.control).toEqual(ctl);
    expect(parseControlMessage(decoded).op).toBe(op);
  });

  it('keeps the fields of MONITOR_P_EXIT', () => {
    expect(parseControlMessage({ control: control.monitorExit(them, us, ref, atom('noproc')) })).toEqual({
      op: 'monitorExit',
      from: them,
      to: us,
      ref,
      reason: atom('noproc'),
    });
  });

  it('reports unknown opcodes as unknown and wrong shapes as ED_ERR_BAD_CONTROL', () => {
    expect(parseControlMessage({ control: tuple(int(99), atom('x')) }).op).toBe('unknown');
    expect(parseControlMessage({ control: atom('x') }).op).toBe('unknown');
    expect(thrownBy(() => parseControlMessage({ control: tuple(int(2), atom(''), us) }))).toMatchObject({
      code: 'ED_ERR_BAD_CONTROL',
    });
    expect(
      thrownBy(() => parseControlMessage({ control: tuple(int(6), us, atom(''), int(1)), message: NIL })),
    ).toMatchObject({ code: 'ED_ERR_BAD_CONTROL' });
  });

  it('refuses a distribution header and bytes after the message', () => {
    expect(thrownBy(() => decodeDistPayload(Uint8Array.of(131, 68, 0)))).toMatchObject({
      code: 'ED_ERR_UNKNOWN_TAG',
      offset: 0,
    });
    const p = payload(encodeDistFrame(control.send(us), NIL));
    expect(thrownBy(() => decodeDistPayload(new Uint8Array([...p, 0])))).toMatchObject({
      code: 'ED_ERR_TRAILING_BYTES',
      offset: p.length,
    });
  });
});

describe('rex RPC shapes', () => {
  it("builds {'$gen_call', {From, Ref}, {call, M, F, A, user}} as REG_SEND to rex", () => {
    const { control: ctl, message } = rexCallMessage(us, ref, { module: 'erlang', function: 'node', args: [] });
    expect(parseControlMessage({ control: ctl, message })).toEqual({
      op: 'regSend',
      from: us,
      toName: 'rex',
      message: tuple(
        atom('$gen_call'),
        tuple(us, ref),
        tuple(atom('call'), atom('erlang'), atom('node'), NIL, atom('user')),
      ),
    });
  });

  it('builds the C-node form {From, {call, ...}} with arguments as a list', () => {
    const { message } = rexCNodeCallMessage(us, {
      module: 'erlang',
      function: 'system_info',
      args: [atom('otp_release')],
    });
    expect(toHex(encodeTerm(message))).toContain('6c00000001770b6f74705f72656c656173656a');
  });

  it('matches {Ref, Reply} and {rex, Reply} replies and finds badrpc reasons', () => {
    expect(matchRexReply(tuple(ref, string('25')))).toEqual({ ref, reply: string('25') });
    expect(matchRexReply(tuple(atom('rex'), NIL))).toBeUndefined();
    expect(matchRexCNodeReply(tuple(atom('rex'), NIL))).toEqual(NIL);
    expect(badRpcReason(tuple(atom('badrpc'), atom('nodedown')))).toEqual(atom('nodedown'));
    expect(badRpcReason(atom('ok'))).toBeUndefined();
  });
});

describe('node identity', () => {
  it('makes distinct pids within 15/13 bits, serial never 0, with our creation', () => {
    const id = new NodeIdentity('wts@127.0.0.1', 0x12345678);
    const pids = Array.from({ length: 40_000 }, () => id.newPid());
    expect(new Set(pids.map((p) => `${p.id}.${p.serial}`)).size).toBe(40_000);
    expect(pids.every((p) => p.id < 0x8000 && p.serial > 0 && p.serial < 0x2000 && p.creation === 0x12345678)).toBe(
      true,
    );
  });

  it('makes distinct 3-word references with the first word within 18 bits', () => {
    const id = new NodeIdentity('wts@127.0.0.1', 5);
    const refs = Array.from({ length: 300_000 }, () => id.newReference());
    expect(new Set(refs.map(referenceKey)).size).toBe(300_000);
    expect(refs.every((r) => r.ids.length === 3 && r.ids[0]! < 0x40000)).toBe(true);
    expect(sameReference(refs[7]!, { ...refs[7]!, ids: [...refs[7]!.ids] })).toBe(true);
    expect(sameReference(refs[7]!, refs[8]!)).toBe(false);
  });

  it('refuses creation 0', () => {
    expect(thrownBy(() => new NodeIdentity('a@b', 0))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
  });
});
