/** Why a byte sequence is not UTF-8, and where it starts. */
export interface Utf8Fault {
  /** Offset of the first byte of the bad sequence. */
  readonly offset: number;
  /**
   * `bad-lead`: the byte cannot start a character; `bad-continuation`: a following byte is wrong; `truncated`: the
   * input ends mid-character.
   */
  readonly reason: 'bad-lead' | 'bad-continuation' | 'truncated';
}

/**
 * Finds the first sequence that is not well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or `undefined` when all bytes are valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): Utf8Fault | undefined {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead === 0xe0) [need, low] = [2, 0xa0];
    else if (lead === 0xed) [need, high] = [2, 0x9f];
    else if (lead >= 0xe1 && lead <= 0xef) need = 2;
    else if (lead === 0xf0) [need, low] = [3, 0x90];
    else if (lead === 0xf4) [need, high] = [3, 0x8f];
    else if (lead >= 0xf1 && lead <= 0xf3) need = 3;
    else return { offset: i, reason: 'bad-lead' };
    for (let k = 1; k <= need; k += 1) {
      if (i + k >= length) return { offset: i, reason: 'truncated' };
      const next = bytes[i + k] as number;
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next < min || next > max) return { offset: i, reason: 'bad-continuation' };
    }
    i += need + 1;
  }
  return undefined;
}

/** Number of bytes `text` takes in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
