/** Small helpers shared by the benchmarks: timing with warm-up, a fixed-width table, CPU of a process. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Runs `fn` `warmup` times, then `runs` times, and returns the timings in milliseconds, sorted. */
export function time(fn: () => unknown, runs: number, warmup = 2): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

export function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Prints rows as an aligned table; numbers get one decimal. */
/** The `p`-th percentile (nearest rank) of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function printTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? c.toFixed(1) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  for (const [n, row] of cells.entries()) {
    console.log(
      row.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  '),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/**
 * Operations per second of `batch(n)` (which runs n operations): one warm-up batch, then the best
 * of `rounds` runs, each calling `batch(chunk)` until `measureMs` have passed.
 */
export function bestRate(
  batch: (n: number) => void,
  options: { warmup: number; chunk: number; rounds: number; measureMs: number },
): number {
  batch(options.warmup);
  let best = 0;
  for (let round = 0; round < options.rounds; round++) {
    let done = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < options.measureMs) {
      batch(options.chunk);
      done += options.chunk;
      elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    }
    best = Math.max(best, (done / elapsed) * 1e3);
  }
  return best;
}

/** User + system CPU seconds of a process so far, all its threads (Linux `/proc/<pid>/stat`, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * User + system CPU seconds of a process's main thread so far (its task of the same id, Linux
 * `/proc/<pid>/task/<pid>/stat`): the rest ran on worker and helper threads.
 */
export function mainThreadCpuSeconds(pid = process.pid): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The machine's load averages over 1, 5 and 15 minutes, as the benchmarks print them. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}
