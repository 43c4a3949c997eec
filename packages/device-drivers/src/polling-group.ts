/** The template's polling groups and their periods in milliseconds. */
const PERIODS: Readonly<Record<string, number>> = {
  '5s': 5_000,
  '10s': 10_000,
  '30s': 30_000,
  '1m': 60_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};

export function pollingPeriod(group: string): number {
  const period = PERIODS[group];
  if (period === undefined) throw new RangeError(`unknown polling group '${group}'`);
  return period;
}
