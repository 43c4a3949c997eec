/**
 * Groups the items of one poll into as few Modbus read requests as the limits allow: per table,
 * sorted by address, neighbours merged while the request stays within the per-request maximum
 * (125 registers, 2000 bits by the specification) and the gap between them is small (reading a
 * few unwanted registers is cheaper than another round trip).
 */
import type { ModbusArea } from './modbus-address.js';

export interface BatchLimits {
  /** Registers per request, at most 125. */
  readonly maxRegisters: number;
  /** Coils or discrete inputs per request, at most 2000. */
  readonly maxBits: number;
  /** Largest run of unwanted registers a request may bridge (bits: 16 times as many). */
  readonly maxGap: number;
}

export const DEFAULT_LIMITS: BatchLimits = { maxRegisters: 125, maxBits: 2000, maxGap: 16 };

/** Something to read: `span` registers (or bits) from `address` of `area` of unit `unit` (default the device's). */
export interface Span {
  readonly unit?: number;
  readonly area: ModbusArea;
  readonly address: number;
  readonly span: number;
}

export interface Batch<T extends Span> {
  readonly unit?: number;
  readonly area: ModbusArea;
  readonly address: number;
  readonly count: number;
  readonly items: readonly T[];
}

export function planBatches<T extends Span>(items: readonly T[], limits: BatchLimits = DEFAULT_LIMITS): Batch<T>[] {
  // Each unit (a device behind a gateway) is read on its own, its own unit first.
  const units = [...new Set(items.map((item) => item.unit))].sort((a, b) => (a ?? -1) - (b ?? -1));
  if (units.length > 1)
    return units.flatMap((unit) =>
      planBatches(
        items.filter((item) => item.unit === unit),
        limits,
      ),
    );
  const unit = units[0];
  const batches: Batch<T>[] = [];
  const areas: ModbusArea[] = ['coil', 'discrete', 'input', 'holding'];
  for (const area of areas) {
    const bits = area === 'coil' || area === 'discrete';
    const max = bits ? limits.maxBits : limits.maxRegisters;
    const gap = bits ? limits.maxGap * 16 : limits.maxGap;
    const sorted = items.filter((item) => item.area === area).sort((a, b) => a.address - b.address || b.span - a.span);
    let current: { address: number; end: number; items: T[] } | undefined;
    for (const item of sorted) {
      const end = item.address + item.span;
      if (
        current !== undefined &&
        item.address - current.end <= gap &&
        Math.max(current.end, end) - current.address <= max
      ) {
        current.items.push(item);
        current.end = Math.max(current.end, end);
        continue;
      }
      if (current !== undefined) batches.push(toBatch(unit, area, current));
      current = { address: item.address, end, items: [item] };
    }
    if (current !== undefined) batches.push(toBatch(unit, area, current));
  }
  return batches;
}

/** Each item alone (items at the same place together), for finding which ones a failed batch could not read. */
export function singleBatches<T extends Span>(batch: Batch<T>): Batch<T>[] {
  const byPlace = new Map<string, T[]>();
  for (const item of batch.items) {
    const key = `${item.address}+${item.span}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), item]);
  }
  return [...byPlace.values()].map((items) => ({
    ...(batch.unit === undefined ? {} : { unit: batch.unit }),
    area: batch.area,
    address: items[0]?.address ?? batch.address,
    count: items[0]?.span ?? 1,
    items,
  }));
}

function toBatch<T extends Span>(
  unit: number | undefined,
  area: ModbusArea,
  run: { address: number; end: number; items: T[] },
): Batch<T> {
  return {
    ...(unit === undefined ? {} : { unit }),
    area,
    address: run.address,
    count: run.end - run.address,
    items: run.items,
  };
}
