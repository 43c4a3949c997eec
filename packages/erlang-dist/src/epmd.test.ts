import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import {
  aliveName,
  decodeAlive2Response,
  decodeNamesResponse,
  decodePort2Response,
  encodeAlive2Request,
  encodeNamesRequest,
  encodePortPlease2Request,
} from './epmd.js';
import { fromHex, toHex } from './test-support/hex.js';

describe('EPMD messages', () => {
  it('encodes PORT_PLEASE2_REQ as length, z and the alive name', () => {
    expect(toHex(encodePortPlease2Request('t1'))).toBe('00037a7431');
  });

  it('refuses a full node name for PORT_PLEASE2_REQ and strips it with aliveName', () => {
    expect(thrownBy(() => encodePortPlease2Request('t1@127.0.0.1'))).toMatchObject({ code: 'ED_ERR_INVALID_ARGUMENT' });
    expect(aliveName('t1@127.0.0.1')).toBe('t1');
  });

  it('decodes the PORT2_RESP a real epmd sent for t1 with every field', () => {
    // [verified] reply of OTP 25.2.3's epmd (reference §1)
    const reply = Uint8Array.of(119, 0, 0x9a, 0x2d, 77, 0, 0, 6, 0, 5, 0, 2, 0x74, 0x31, 0, 0);
    expect(decodePort2Response(reply)).toEqual({
      found: true,
      port: 39469,
      nodeType: 77,
      protocol: 0,
      highestVersion: 6,
      lowestVersion: 5,
      name: 't1',
      extra: new Uint8Array(0),
    });
  });

  it('decodes [119, 1] as a node that is not registered', () => {
    expect(decodePort2Response(Uint8Array.of(119, 1))).toEqual({ found: false, result: 1 });
  });

  it('reports a PORT2_RESP cut inside the name as ED_ERR_TRUNCATED at the cut', () => {
    const reply = Uint8Array.of(119, 0, 0x9a, 0x2d, 77, 0, 0, 6, 0, 5, 0, 2, 0x74);
    expect(thrownBy(() => decodePort2Response(reply))).toMatchObject({ code: 'ED_ERR_TRUNCATED', offset: 12 });
  });

  it('refuses a reply with another tag', () => {
    expect(thrownBy(() => decodePort2Response(Uint8Array.of(118, 0)))).toMatchObject({ code: 'ED_ERR_UNKNOWN_TAG' });
  });

  it('encodes NAMES_REQ and parses the name lines of the reply', () => {
    expect(toHex(encodeNamesRequest())).toBe('00016e');
    const reply = new Uint8Array([0, 0, 0x11, 0x11, ...Buffer.from('name s1 at port 37247\nname t1 at port 39469\n')]);
    expect(decodeNamesResponse(reply)).toEqual({
      epmdPort: 4369,
      nodes: [
        { name: 's1', port: 37247 },
        { name: 't1', port: 39469 },
      ],
      otherLines: [],
    });
  });

  it('keeps NAMES lines of another shape apart', () => {
    const reply = new Uint8Array([0, 0, 0x11, 0x11, ...Buffer.from('name a at port 1\ngarbage\n')]);
    expect(decodeNamesResponse(reply).otherLines).toEqual(['garbage']);
  });

  it('encodes ALIVE2_REQ and decodes both ALIVE2 reply forms', () => {
    expect(toHex(encodeAlive2Request({ port: 0x1234, alive: 'a', nodeType: 72 }))).toBe(
      '000e7812344800000600060001610000',
    );
    expect(decodeAlive2Response(fromHex('76 00 12345678'))).toEqual({ result: 0, creation: 0x12345678 });
    expect(decodeAlive2Response(fromHex('79 00 0003'))).toEqual({ result: 0, creation: 3 });
  });
});
