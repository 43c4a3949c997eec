/**
 * Groups the values of one poll into as few S7 read requests as the protocol allows. Values of
 * one area (one DB, the merkers, the inputs, the outputs) are joined into byte ranges while the
 * gap between them is at most `maxGap` bytes (reading a few unwanted bytes is cheaper than a
 * round trip); the ranges are cut into pieces that fit one answer; the pieces are packed into
 * "read var" requests of at most 20 items (snap7's limit) whose request and answer both fit the
 * PDU size the PLC negotiated (240 bytes on most S7-300, 480 or 960 on newer CPUs).
 */
import type { S7Area } from './s7-address.js';

/** Something to read: `size` bytes from byte `start` of an area (of DB `db`). */
export interface S7Span {
  readonly area: S7Area;
  readonly db: number;
  readonly start: number;
  readonly size: number;
}

/** Contiguous bytes of one area holding `items`. */
export interface S7Range<T extends S7Span> extends S7Span {
  readonly items: readonly T[];
}

/** Part of a range read as one item of a request: `size` bytes from `start`. */
export interface S7Piece<T extends S7Span> extends S7Span {
  readonly range: S7Range<T>;
}

export interface S7Request<T extends S7Span> {
  readonly pieces: readonly S7Piece<T>[];
}

export interface S7Limits {
  /** The negotiated PDU size in bytes. */
  readonly pduSize: number;
  /** Largest run of unwanted bytes a range may bridge. */
  readonly maxGap: number;
  /** Items per request, at most 20. */
  readonly maxItems?: number;
}

/** S7 header (10 bytes) plus function and item count (2) before the 12-byte item specifications. */
const REQUEST_OVERHEAD = 12;
const REQUEST_ITEM = 12;
/** S7 answer header (12 bytes) plus function and item count (2) before the items. */
const ANSWER_OVERHEAD = 14;
/** Return code, transport size and length before each item's data. */
const ANSWER_ITEM = 4;
export const MAX_ITEMS = 20;

/** Joins spans of one area and DB into ranges, in area, DB and byte order. */
export function planRanges<T extends S7Span>(items: readonly T[], maxGap: number): S7Range<T>[] {
  const sorted = [...items].sort(
    (a, b) => a.area.localeCompare(b.area) || a.db - b.db || a.start - b.start || b.size - a.size,
  );
  const ranges: S7Range<T>[] = [];
  let current: { area: S7Area; db: number; start: number; end: number; items: T[] } | undefined;
  for (const item of sorted) {
    const end = item.start + item.size;
    if (
      current !== undefined &&
      current.area === item.area &&
      current.db === item.db &&
      item.start - current.end <= maxGap
    ) {
      current.items.push(item);
      current.end = Math.max(current.end, end);
      continue;
    }
    if (current !== undefined) ranges.push(toRange(current));
    current = { area: item.area, db: item.db, start: item.start, end, items: [item] };
  }
  if (current !== undefined) ranges.push(toRange(current));
  return ranges;
}

/** Cuts ranges into pieces that fit one answer and packs them into as few requests as fit the limits. */
export function planRequests<T extends S7Span>(ranges: readonly S7Range<T>[], limits: S7Limits): S7Request<T>[] {
  const maxItems = Math.min(
    limits.maxItems ?? MAX_ITEMS,
    MAX_ITEMS,
    Math.floor((limits.pduSize - REQUEST_OVERHEAD) / REQUEST_ITEM),
  );
  // Even, so that a piece with its fill byte still fits.
  const maxData = (limits.pduSize - ANSWER_OVERHEAD - ANSWER_ITEM) & ~1;
  if (maxItems < 1 || maxData < 2) throw new RangeError(`a PDU of ${limits.pduSize} bytes is too small to read`);
  const pieces: S7Piece<T>[] = [];
  for (const range of ranges)
    for (let start = range.start; start < range.start + range.size; start += maxData)
      pieces.push({
        area: range.area,
        db: range.db,
        start,
        size: Math.min(maxData, range.start + range.size - start),
        range,
      });
  // First fit, largest pieces first: few requests, and each request's answer within the PDU.
  const budget = limits.pduSize - ANSWER_OVERHEAD;
  const bins: { pieces: S7Piece<T>[]; used: number }[] = [];
  for (const piece of [...pieces].sort((a, b) => b.size - a.size)) {
    const cost = ANSWER_ITEM + piece.size + (piece.size % 2);
    const bin = bins.find((b) => b.pieces.length < maxItems && b.used + cost <= budget);
    if (bin === undefined) bins.push({ pieces: [piece], used: cost });
    else {
      bin.pieces.push(piece);
      bin.used += cost;
    }
  }
  return bins.map((bin) => ({ pieces: bin.pieces }));
}

/** Each item alone (items at the same bytes together): for finding which ones a failed range could not read. */
export function singleRanges<T extends S7Span>(range: S7Range<T>): S7Range<T>[] {
  const byPlace = new Map<string, T[]>();
  for (const item of range.items) {
    const key = `${item.start}+${item.size}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), item]);
  }
  return [...byPlace.values()].map((items) => {
    const first = items[0] as T;
    return { area: range.area, db: range.db, start: first.start, size: first.size, items };
  });
}

function toRange<T extends S7Span>(run: { area: S7Area; db: number; start: number; end: number; items: T[] }) {
  return { area: run.area, db: run.db, start: run.start, size: run.end - run.start, items: run.items };
}
