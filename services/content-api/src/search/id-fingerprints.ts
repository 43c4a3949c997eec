/**
 * The ids seen so far, in at most a fixed size. Up to `EXACT_IDS` ids, a table of their 64-bit
 * fingerprints (two 32-bit hashes of the UTF-16 code units; open addressing in one `Uint32Array`,
 * at most half full, 16–32 bytes an id): a yes is all but certain to be a repeat. Beyond, the
 * fingerprints move into a split-block Bloom filter of `bytes` (default 32 MiB): every id sets 8
 * bits in one block of 8 32-bit words (one bit a word), the block chosen by the first hash, the bits
 * by the second. Its memory does not grow with the ids, where the table doubled as it filled
 * (160–320 MB at 10 M); `has` may then say yes for an id never added: 1 in 10,000 at 10,000,000
 * ids in 32 MiB (27 bits an id; 156 false yeses while adding them, measured), more beyond. A
 * caller confirms a yes against what it stored. A no is always right.
 */
export class IdFingerprints {
  /** The fingerprints' table (pairs of words; both 0: empty), undefined once they went to the filter. */
  #slots: Uint32Array | undefined;
  #mask: number;
  #filter: Uint32Array | undefined;
  /** Right shift of the first hash that gives a block's index in the filter. */
  #shift = 32;
  readonly #bytes: number;
  readonly #exactIds: number;
  #size = 0;

  /** `bytes`: the filter's size, a power of two from 32; `exactIds`: the ids kept exactly before it. */
  constructor(bytes = ID_FILTER_BYTES, exactIds = EXACT_IDS) {
    this.#bytes = bytes;
    this.#exactIds = exactIds;
    this.#slots = new Uint32Array(2 * 1024);
    this.#mask = 1023;
  }

  /** Ids added that were not there yet (in the filter: whose bits were not all set). */
  get size(): number {
    return this.#size;
  }

  /** Whether `id` may have been added (perhaps another id gave the same bits: confirm a yes). */
  has(id: string): boolean {
    hashId(id);
    const filter = this.#filter;
    if (filter === undefined) return this.#find(HI, LO) >= 0;
    const block = this.#block(HI);
    for (let i = 0; i < BLOCK_WORDS; i += 1) {
      const bit = 1 << (Math.imul(LO, SALTS[i]!) >>> 27);
      if ((filter[block + i]! & bit) === 0) return false;
    }
    return true;
  }

  /** Adds `id`; false when it was there already (or, in the filter, its bits were all set by others). */
  add(id: string): boolean {
    hashId(id);
    const hi = HI;
    const lo = LO;
    if (this.#slots !== undefined) {
      if (this.#find(hi, lo) >= 0) return false;
      if (this.#size < this.#exactIds) {
        if ((this.#size + 1) * 2 > this.#mask + 1) this.#grow();
        this.#put(hi, lo);
        this.#size += 1;
        return true;
      }
      this.#toFilter();
    }
    if (!this.#set(hi, lo)) return false;
    this.#size += 1;
    return true;
  }

  /** Sets the filter's bits of a fingerprint; whether one was not set. */
  #set(hi: number, lo: number): boolean {
    const filter = this.#filter!;
    const block = this.#block(hi);
    let fresh = false;
    for (let i = 0; i < BLOCK_WORDS; i += 1) {
      const bit = 1 << (Math.imul(lo, SALTS[i]!) >>> 27);
      const word = filter[block + i]!;
      if ((word & bit) === 0) {
        filter[block + i] = word | bit;
        fresh = true;
      }
    }
    return fresh;
  }

  /** Index of the first word of a fingerprint's block in the filter. */
  #block(hi: number): number {
    return this.#shift === 32 ? 0 : (hi >>> this.#shift) * BLOCK_WORDS;
  }

  /** Moves the table's fingerprints into the filter (once, at `exactIds` ids) and drops the table. */
  #toFilter(): void {
    let blocks = 1;
    while (blocks * BLOCK_BYTES < this.#bytes) {
      blocks *= 2;
      this.#shift -= 1;
    }
    this.#filter = new Uint32Array(blocks * BLOCK_WORDS);
    const old = this.#slots!;
    this.#slots = undefined;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.#set(old[i]!, old[i + 1]! | 0);
  }

  /** The table's slot holding the fingerprint, or -1. */
  #find(hi: number, lo: number): number {
    const slots = this.#slots!;
    const mask = this.#mask;
    const l = lo >>> 0;
    for (let i = l & mask; ; i = (i + 1) & mask) {
      const sh = slots[2 * i]!;
      const sl = slots[2 * i + 1]!;
      if (sh === hi && sl === l) return i;
      if (sh === 0 && sl === 0) return -1;
    }
  }

  #put(hi: number, lo: number): void {
    const slots = this.#slots!;
    const mask = this.#mask;
    let i = (lo >>> 0) & mask;
    while (slots[2 * i] !== 0 || slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = hi;
    slots[2 * i + 1] = lo;
  }

  #grow(): void {
    const old = this.#slots!;
    this.#slots = new Uint32Array(old.length * 2);
    this.#mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.#put(old[i]!, old[i + 1]!);
  }
}

/** Ids kept exactly before the filter (the table then holds 2^20 slots, 8 MiB). */
export const EXACT_IDS = 512 * 1024;

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
  if (HI === 0 && LO === 0) LO = 1;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
