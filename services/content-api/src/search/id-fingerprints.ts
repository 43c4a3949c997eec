/**
 * A set of 64-bit fingerprints of strings (two 32-bit hashes of the UTF-16 code units), open
 * addressing in one typed array of 8-byte slots at most half full (16–32 bytes a string), not every
 * string. `has` may say yes for a string never added (two strings with one fingerprint): a caller
 * confirms a hit against what it stored; a no is always right.
 */
export class IdFingerprints {
  /** Pairs of 32-bit words per slot; both 0: empty (a fingerprint is never 0, 0). */
  #slots: Uint32Array;
  #mask: number;
  #size = 0;

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.#slots = new Uint32Array(slots * 2);
    this.#mask = slots - 1;
  }

  /** Fingerprints added. */
  get size(): number {
    return this.#size;
  }

  /** Whether `id`'s fingerprint was added (perhaps by another string: confirm a hit). */
  has(id: string): boolean {
    fingerprint(id);
    return this.#find(HI, LO) >= 0;
  }

  /** Adds `id`'s fingerprint; false when it was there already. */
  add(id: string): boolean {
    fingerprint(id);
    const hi = HI;
    const lo = LO;
    const found = this.#find(hi, lo);
    if (found >= 0) return false;
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#grow();
    this.#put(hi, lo);
    this.#size += 1;
    return true;
  }

  /** The slot holding the fingerprint, or -1. */
  #find(hi: number, lo: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const h = slots[2 * i]!;
      const l = slots[2 * i + 1]!;
      if (h === hi && l === lo) return i;
      if (h === 0 && l === 0) return -1;
    }
  }

  #put(hi: number, lo: number): void {
    const slots = this.#slots;
    const mask = this.#mask;
    let i = lo & mask;
    while (slots[2 * i] !== 0 || slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = hi;
    slots[2 * i + 1] = lo;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    this.#mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.#put(old[i]!, old[i + 1]!);
  }
}

/** The last fingerprint computed (two words, no allocation). */
let HI = 0;
let LO = 0;

/** FNV-1a and a multiplicative hash of the code units, each finished with a 32-bit mix. */
function fingerprint(id: string): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ id.length;
  for (let i = 0; i < id.length; i += 1) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  HI = mix(a) >>> 0;
  LO = mix(b) >>> 0;
  if (HI === 0 && LO === 0) LO = 1;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
