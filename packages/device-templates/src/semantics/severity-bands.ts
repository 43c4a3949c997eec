/**
 * Names of severity bands, for messages. INFERRED: the schema only fixes 1–200 for log
 * evaluations and 201–1000 for alarm evaluations; the five names and their boundaries come from
 * the driver API's notifier methods (notify 1, inform 201, warn 401, error 601, critical 801),
 * read as the lower bound of each band. The vendor's own table of severity ranges is not public.
 */
const BANDS: readonly { readonly from: number; readonly to: number; readonly name: string }[] = [
  { from: 1, to: 200, name: 'log/notification' },
  { from: 201, to: 400, name: 'info' },
  { from: 401, to: 600, name: 'warning' },
  { from: 601, to: 800, name: 'error' },
  { from: 801, to: 1000, name: 'critical' },
];

/** The name of the band `severity` falls in (`601` -> `error`), or undefined outside 1–1000. */
export function severityBand(severity: unknown): string | undefined {
  if (typeof severity !== 'number' || !Number.isInteger(severity)) return undefined;
  return BANDS.find((band) => severity >= band.from && severity <= band.to)?.name;
}

/** Names an evaluation for a message: `the evaluation with severity 601 (error)`. */
export function describeEvaluation(evaluation: Readonly<Record<string, unknown>>, index: number): string {
  const severity = evaluation['severity'];
  const band = severityBand(severity);
  if (band === undefined) return `evaluation ${index}`;
  return `the evaluation with severity ${String(severity)} (${band})`;
}
