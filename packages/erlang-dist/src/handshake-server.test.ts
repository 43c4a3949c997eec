import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byte-writer.js';
import { challengeDigest } from './challenge-digest.js';
import { DistFlag, HIDDEN_CLIENT_FLAGS, VISIBLE_NODE_FLAGS } from './dist-flags.js';
import { encodeFrame, FrameDecoder } from './frame-decoder.js';
import { HandshakeClient } from './handshake-client.js';
import {
  decodeChallenge,
  decodeChallengeAck,
  decodeStatus,
  encodeChallengeReply,
  encodeSendName,
} from './handshake-messages.js';
import { aliasesNegotiated, HandshakeServer } from './handshake-server.js';

const OTP25_FLAGS = 0xd07df7fbdn; // what an OTP 25.2.3 node advertised (reference §3)
const SERVER_CHALLENGE = 0x0badf00d;

function server(extra: Partial<ConstructorParameters<typeof HandshakeServer>[0]> = {}): HandshakeServer {
  return new HandshakeServer({
    name: 'wombat@127.0.0.1',
    cookie: 'secret',
    creation: 0x01020304,
    randomChallenge: () => SERVER_CHALLENGE,
    ...extra,
  });
}

function payloads(framed: readonly Uint8Array[]): Uint8Array[] {
  const d = new FrameDecoder({ headerBytes: 2 });
  for (const f of framed) d.push(f);
  const out: Uint8Array[] = [];
  for (let f = d.pull(); f; f = d.pull()) if (f.type === 'data') out.push(f.payload);
  return out;
}

/** Runs a client against a server to the end; returns both results or the first error. */
function run(srv: HandshakeServer, clientCookie: string) {
  const client = new HandshakeClient({ name: 'n1@127.0.0.1', cookie: clientCookie, creation: 77 });
  let toServer = payloads([client.start()]);
  for (let round = 0; round < 4; round++) {
    const toClient: Uint8Array[] = [];
    for (const p of toServer) {
      const step = srv.receive(p);
      toClient.push(...step.send);
      if (step.result) {
        const ack = payloads(step.send).at(-1)!;
        return { server: step.result, client: client.receive(ack).result };
      }
    }
    toServer = [];
    for (const p of payloads(toClient)) toServer.push(...payloads(client.receive(p).send));
  }
  throw new Error('no result');
}

describe('HandshakeServer', () => {
  it('completes a handshake with our own client and agrees on the flags both sides have', () => {
    const { server: s, client: c } = run(server(), 'secret');
    expect(s).toEqual({
      peerName: 'n1@127.0.0.1',
      peerFlags: HIDDEN_CLIENT_FLAGS,
      peerCreation: 77,
      flags: HIDDEN_CLIENT_FLAGS & VISIBLE_NODE_FLAGS,
    });
    expect(c).toMatchObject({ peerName: 'wombat@127.0.0.1', peerCreation: 0x01020304 });
    expect(c!.peerFlags & DistFlag.PUBLISHED).toBe(DistFlag.PUBLISHED);
  });

  it('answers send_name with status ok and a challenge naming us, then acks with md5(cookie ++ challenge)', () => {
    const srv = server();
    const first = srv.receive(encodeSendName({ flags: OTP25_FLAGS, creation: 5, name: 'n1@127.0.0.1' }));
    const [status, challenge] = payloads(first.send);
    expect(decodeStatus(status!)).toBe('ok');
    expect(decodeChallenge(challenge!)).toEqual({
      flags: VISIBLE_NODE_FLAGS,
      challenge: SERVER_CHALLENGE,
      creation: 0x01020304,
      name: 'wombat@127.0.0.1',
    });
    const last = srv.receive(
      encodeChallengeReply({ challenge: 42, digest: challengeDigest('secret', SERVER_CHALLENGE) }),
    );
    expect(decodeChallengeAck(payloads(last.send)[0]!)).toEqual(challengeDigest('secret', 42));
    expect(aliasesNegotiated(last.result!)).toBe(true);
    expect(srv.state).toBe('connected');
  });

  it('refuses a wrong cookie with ED_ERR_BAD_DIGEST and sends no ack', () => {
    const srv = server();
    expect(thrownBy(() => run(srv, 'wrong'))).toMatchObject({ code: 'ED_ERR_BAD_DIGEST' });
    expect(srv.state).toBe('failed');
  });

  it('accepts the version-5 send_name with DFLAG_HANDSHAKE_23 followed by the complement', () => {
    const srv = server();
    const w = new ByteWriter(64);
    w.u8(110); // 'n'
    w.u16(5);
    w.u32(Number(OTP25_FLAGS & 0xffff_ffffn));
    w.bytes(new TextEncoder().encode('old@127.0.0.1'));
    const first = srv.receive(w.finish());
    expect(payloads(first.send).map((p) => p[0])).toEqual([115, 78]); // status, new challenge
    expect(srv.state).toBe('awaitComplement');
    const c = new ByteWriter(9);
    c.u8(99); // 'c'
    c.u32(Number(OTP25_FLAGS >> 32n));
    c.u32(1234);
    expect(srv.receive(c.finish()).send).toEqual([]);
    const done = srv.receive(
      encodeChallengeReply({ challenge: 1, digest: challengeDigest('secret', SERVER_CHALLENGE) }),
    );
    expect(done.result).toMatchObject({ peerName: 'old@127.0.0.1', peerFlags: OTP25_FLAGS, peerCreation: 1234 });
  });

  it('refuses a peer without the OTP-25 mandatory flags, a malformed name, and a name over 255 bytes', () => {
    expect(
      thrownBy(() => server().receive(encodeSendName({ flags: DistFlag.PUBLISHED, creation: 1, name: 'a@b' }))),
    ).toMatchObject({ code: 'ED_ERR_PEER_FLAGS' });
    expect(
      thrownBy(() => server().receive(encodeSendName({ flags: OTP25_FLAGS, creation: 1, name: 'no-at-sign' }))),
    ).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
    const long = `${'a'.repeat(250)}@127.0.0.1`;
    expect(
      thrownBy(() => server().receive(encodeSendName({ flags: OTP25_FLAGS, creation: 1, name: long }))),
    ).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
  });

  it('refuses with status not_allowed when allow says no', () => {
    const srv = server({ allow: () => false });
    expect(
      thrownBy(() => srv.receive(encodeSendName({ flags: OTP25_FLAGS, creation: 1, name: 'n1@h' }))),
    ).toMatchObject({ code: 'ED_ERR_HANDSHAKE_REFUSED' });
    expect(decodeStatus(payloads([srv.refusal!])[0]!)).toBe('not_allowed');
  });

  it('refuses garbage and any message after the end', () => {
    expect(thrownBy(() => server().receive(new Uint8Array([1, 2, 3])))).toMatchObject({ code: 'ED_ERR_UNKNOWN_TAG' });
    const srv = server();
    run(srv, 'secret');
    expect(thrownBy(() => srv.receive(encodeFrame(new Uint8Array(1), 2)))).toMatchObject({
      code: 'ED_ERR_HANDSHAKE_STATE',
    });
  });
});
