/**
 * A driver factory that counts what the polling drivers it creates read (the SNMP benchmarks):
 * drivers made, reads that returned, values among their updates and how many were not good,
 * reads that failed, and each returned read's duration.
 */
import type { DriverFactory, PollingDriver } from '@triad/device-drivers';

export interface DriverCounts {
  created: number;
  reads: number;
  valuesRead: number;
  notGood: number;
  failedReads: number;
  /** Milliseconds of each read that returned, in order. */
  latencies: number[];
}

export const noCounts = (): DriverCounts => ({
  created: 0,
  reads: 0,
  valuesRead: 0,
  notGood: 0,
  failedReads: 0,
  latencies: [],
});

/** `factory` with every driver it creates counted into `counts` (its drivers must be polling ones). */
export function countingDriver(factory: DriverFactory, counts: DriverCounts): DriverFactory {
  return {
    ...factory,
    create(context) {
      counts.created++;
      const driver = factory.create(context) as PollingDriver;
      return {
        kind: 'polling',
        async read(request, signal) {
          const start = performance.now();
          try {
            const result = await driver.read(request, signal);
            counts.latencies.push(performance.now() - start);
            counts.reads++;
            for (const update of result.updates)
              if ('quality' in update) {
                counts.valuesRead++;
                if (update.quality !== 'good') counts.notGood++;
              }
            return result;
          } catch (error) {
            counts.failedReads++;
            throw error;
          }
        },
        close: () => driver.close(),
      };
    },
  };
}
