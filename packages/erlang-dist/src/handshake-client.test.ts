import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { challengeDigest, digestsEqual } from './challenge-digest.js';
import { DistFlag, HIDDEN_CLIENT_FLAGS, MANDATORY_FLAGS_25, missingMandatoryFlags } from './dist-flags.js';
import { FrameDecoder } from './frame-decoder.js';
import { HandshakeClient } from './handshake-client.js';
import {
  decodeChallengeReply,
  decodeSendName,
  encodeChallenge,
  encodeChallengeAck,
  encodeSendName,
  encodeStatus,
} from './handshake-messages.js';
import { toHex } from './test-support/hex.js';

const OTP25_FLAGS = 0xd07df7fbdn; // what an OTP 25.2.3 node advertised (reference §3)
const PEER_CHALLENGE = 0xdeadbeef;
const OUR_CHALLENGE = 123456789;

function client(cookie = 'secret', extra: Partial<ConstructorParameters<typeof HandshakeClient>[0]> = {}) {
  return new HandshakeClient({
    name: 'wts@127.0.0.1',
    cookie,
    creation: 0x12345678,
    randomChallenge: () => OUR_CHALLENGE,
    ...extra,
  });
}

function payloadOf(framed: Uint8Array): Uint8Array {
  const d = new FrameDecoder({ headerBytes: 2 });
  d.push(framed);
  const f = d.pull();
  if (f?.type !== 'data') throw new Error('no frame');
  return f.payload;
}

const challenge = () =>
  encodeChallenge({ flags: OTP25_FLAGS, challenge: PEER_CHALLENGE, creation: 99, name: 't1@127.0.0.1' });

describe('challenge digest', () => {
  it('matches the reference example md5("secret3735928559")', () => {
    expect(toHex(challengeDigest('secret', 0xdeadbeef))).toBe('c3939b31d7a913d82e2ace09247c7b41');
  });

  it('compares digests by content', () => {
    const a = challengeDigest('secret', 1);
    expect(digestsEqual(a, challengeDigest('secret', 1))).toBe(true);
    expect(digestsEqual(a, challengeDigest('secreT', 1))).toBe(false);
    expect(digestsEqual(a, a.subarray(0, 15))).toBe(false);
  });

  it('refuses challenges outside u32 and cookies beyond Latin-1', () => {
    expect(thrownBy(() => challengeDigest('x', 2 ** 32))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
    expect(thrownBy(() => challengeDigest('\u65e5', 1))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
  });
});

describe('distribution flags', () => {
  it('advertises the erl_interface hidden set: no PUBLISHED, no atom cache header, all OTP 25 mandatory flags', () => {
    expect(HIDDEN_CLIENT_FLAGS & DistFlag.PUBLISHED).toBe(0n);
    expect(HIDDEN_CLIENT_FLAGS & DistFlag.DIST_HDR_ATOM_CACHE).toBe(0n);
    expect(HIDDEN_CLIENT_FLAGS & MANDATORY_FLAGS_25).toBe(MANDATORY_FLAGS_25);
    expect(missingMandatoryFlags(HIDDEN_CLIENT_FLAGS)).toBe(0n);
  });

  it('expands a peer DIGEST bit to the OTP 25 set and names what is missing otherwise', () => {
    expect(missingMandatoryFlags(DistFlag.MANDATORY_25_DIGEST)).toBe(0n);
    expect(missingMandatoryFlags(MANDATORY_FLAGS_25 & ~DistFlag.MAP_TAG)).toBe(DistFlag.MAP_TAG);
  });
});

describe('handshake client', () => {
  it('starts with the send_name bytes of the reference example', () => {
    expect(toHex(client().start())).toBe(
      '001c4e0000000407074f9c12345678000d7774734031323 72e302e302e31'.replace(/ /g, ''),
    );
  });

  it('completes ok -> challenge -> reply -> ack and returns the peer and the common flags', () => {
    const c = client();
    const sent = decodeSendName(payloadOf(c.start()));
    expect(sent).toEqual({ flags: HIDDEN_CLIENT_FLAGS, creation: 0x12345678, name: 'wts@127.0.0.1' });
    expect(c.receive(encodeStatus('ok'))).toEqual({ send: [] });
    const step = c.receive(challenge());
    expect(step.send).toHaveLength(1);
    const reply = decodeChallengeReply(payloadOf(step.send[0]!));
    expect(reply.challenge).toBe(OUR_CHALLENGE);
    expect(toHex(reply.digest)).toBe('c3939b31d7a913d82e2ace09247c7b41');
    const done = c.receive(encodeChallengeAck(challengeDigest('secret', OUR_CHALLENGE)));
    expect(done.result).toEqual({
      peerName: 't1@127.0.0.1',
      peerFlags: OTP25_FLAGS,
      peerCreation: 99,
      flags: OTP25_FLAGS & HIDDEN_CLIENT_FLAGS,
    });
    expect(c.state).toBe('connected');
  });

  it('continues after ok_simultaneous', () => {
    const c = client();
    c.start();
    c.receive(encodeStatus('ok_simultaneous'));
    expect(c.state).toBe('awaitChallenge');
  });

  it.each(['nok', 'not_allowed', 'named:'])('fails with ED_ERR_HANDSHAKE_REFUSED on status %s', (status) => {
    const c = client();
    c.start();
    expect(thrownBy(() => c.receive(encodeStatus(status)))).toMatchObject({
      code: 'ED_ERR_HANDSHAKE_REFUSED',
      details: { status },
    });
    expect(c.state).toBe('failed');
  });

  it('answers status alive with true when told to take over, and refuses otherwise', () => {
    const taker = client('secret', { takeOverAlive: true });
    taker.start();
    expect(taker.receive(encodeStatus('alive')).send.map(payloadOf).map(toHex)).toEqual([toHex(encodeStatus('true'))]);
    const polite = client();
    polite.start();
    expect(thrownBy(() => polite.receive(encodeStatus('alive')))).toMatchObject({ code: 'ED_ERR_HANDSHAKE_REFUSED' });
  });

  it('rejects an ack made with another cookie as ED_ERR_BAD_DIGEST', () => {
    const c = client();
    c.start();
    c.receive(encodeStatus('ok'));
    c.receive(challenge());
    expect(thrownBy(() => c.receive(encodeChallengeAck(challengeDigest('other', OUR_CHALLENGE))))).toMatchObject({
      code: 'ED_ERR_BAD_DIGEST',
    });
  });

  it('maps a close after the challenge reply to ED_ERR_BAD_COOKIE, an earlier one to ED_ERR_CONNECTION_CLOSED', () => {
    const c = client();
    c.start();
    expect(c.closedError().code).toBe('ED_ERR_CONNECTION_CLOSED');
    c.receive(encodeStatus('ok'));
    c.receive(challenge());
    expect(c.closedError().code).toBe('ED_ERR_BAD_COOKIE');
    expect(c.closedError().message).not.toContain('secret');
  });

  it('rejects a peer without the mandatory OTP 25 flags', () => {
    const c = client();
    c.start();
    c.receive(encodeStatus('ok'));
    const weak = encodeChallenge({ flags: DistFlag.HANDSHAKE_23, challenge: 1, creation: 1, name: 'x@y' });
    expect(thrownBy(() => c.receive(weak))).toMatchObject({ code: 'ED_ERR_PEER_FLAGS' });
  });

  it('rejects messages out of order with ED_ERR_HANDSHAKE_STATE or a tag error', () => {
    const c = client();
    expect(thrownBy(() => c.receive(encodeStatus('ok')))).toMatchObject({ code: 'ED_ERR_HANDSHAKE_STATE' });
    const d = client();
    d.start();
    expect(thrownBy(() => d.receive(challenge()))).toMatchObject({ code: 'ED_ERR_UNKNOWN_TAG' });
  });

  it('refuses a creation of 0 and a name without host', () => {
    expect(thrownBy(() => client('secret', { creation: 0 }))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
    expect(thrownBy(() => client('secret', { name: 'wts' }))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
  });

  it('decodes its own send_name as the peer would', () => {
    const bytes = encodeSendName({ flags: 1n << 40n, creation: 5, name: 'a@b' });
    expect(decodeSendName(bytes)).toEqual({ flags: 1n << 40n, creation: 5, name: 'a@b' });
  });
});
