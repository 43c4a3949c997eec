import { randomInt } from 'node:crypto';
import { ErlangDistError } from './errors.js';
import type { PidTerm, ReferenceTerm } from './term.js';

/**
 * Our hidden node's name and creation, and the pids and references it makes (reference §6).
 * Pids follow erl_interface: ID in 15 bits and Serial in 13 bits, serial never 0, which every OTP
 * version accepts. References have 3 words, the first limited to 18 bits. The creation must be the
 * one sent in send_name.
 */
export class NodeIdentity {
  readonly node: string;
  readonly creation: number;
  #pidCounter = 1 << 15; // serial starts at 1
  #refCounter = 0;
  readonly #refSalt: readonly [number, number];

  constructor(node: string, creation: number) {
    if (!Number.isInteger(creation) || creation < 1 || creation > 0xffff_ffff) {
      throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', { detail: `creation ${creation} is not in 1..2^32-1` });
    }
    this.node = node;
    this.creation = creation;
    this.#refSalt = [randomInt(0, 0x1_0000_0000), randomInt(0, 0x1_0000_0000)];
  }

  /** A fresh pid on our node; IDs wrap after 2^28 - 2^15 pids. */
  newPid(): PidTerm {
    const n = this.#pidCounter;
    this.#pidCounter = n + 1 >= 1 << 28 ? 1 << 15 : n + 1;
    return { type: 'pid', node: this.node, id: n & 0x7fff, serial: (n >>> 15) & 0x1fff, creation: this.creation };
  }

  /**
   * A fresh reference on our node, unique within this identity (a 2^50 counter plus a random salt).
   * Same as `referenceFor(newReferenceSerial())`.
   */
  newReference(): ReferenceTerm {
    return this.referenceFor(this.newReferenceSerial());
  }

  /**
   * Advances the reference counter and returns its value (the serial of a fresh reference), for
   * callers that key their tables by number and build the reference with `referenceFor`.
   */
  newReferenceSerial(): number {
    const n = this.#refCounter;
    this.#refCounter = n + 1 >= 2 ** 50 ? 0 : n + 1;
    return n;
  }

  /** The reference with serial `n` (0 <= n < 2^50): ids `[n mod 2^18, (n / 2^18 + salt) mod 2^32, salt']`. */
  referenceFor(n: number): ReferenceTerm {
    const low = n % 0x40000;
    const high = Math.floor(n / 0x40000);
    return {
      type: 'reference',
      node: this.node,
      creation: this.creation,
      ids: [low, (high + this.#refSalt[0]) >>> 0, this.#refSalt[1]],
    };
  }

  /** The serial of a reference `referenceFor` made with this identity; undefined for any other reference. */
  referenceSerial(ref: ReferenceTerm): number | undefined {
    const ids = ref.ids;
    if (ids.length !== 3 || ids[2] !== this.#refSalt[1] || ref.node !== this.node || ref.creation !== this.creation)
      return undefined;
    const [low, mid] = ids;
    if (low === undefined || mid === undefined) return undefined; // three ids, checked above
    if (!Number.isInteger(low) || low < 0 || low >= 0x40000 || !Number.isInteger(mid) || mid < 0 || mid > 0xffff_ffff)
      return undefined;
    return ((mid - this.#refSalt[0]) >>> 0) * 0x40000 + low;
  }
}

/** A random creation for a new identity, avoiding 0..3 (reserved / used by net_kernel for special cases). */
export function randomCreation(): number {
  return randomInt(4, 0x1_0000_0000);
}
