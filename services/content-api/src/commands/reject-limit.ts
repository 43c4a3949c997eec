/**
 * How many refused records an import tolerates before it commits nothing: a count (`{ count: 10 }`,
 * more than 10 refuse the import) or a share of the records read (`{ percent: 5 }`).
 */
export type RejectLimit = { readonly count: number } | { readonly percent: number };

/** Share of refused records above which an import commits nothing by default, percent. */
export const DEFAULT_MAX_REJECT_PERCENT = 5;

/**
 * Parses `--max-rejects`: a whole number (`25`) or a percentage (`2.5%`, 0 to 100).
 *
 * @throws RangeError naming what is accepted.
 */
export function parseRejectLimit(text: string): RejectLimit {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent) {
    const value = Number(percent[1]);
    if (value <= 100) return { percent: value };
  } else if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return { count: Number(text) };
  throw new RangeError(`max rejects must be a whole number (25) or a percentage from 0% to 100% (2.5%), not ${text}`);
}

/** What the decision looks at when the file has been read. */
export interface RejectTally {
  /** Records read (accepted and refused). */
  readonly records: number;
  readonly refused: number;
  /** Articles the shop would hold after a replacement; undefined for a delta. */
  readonly shopArticlesAfter: number | undefined;
}

/**
 * Why the import must commit nothing, or undefined when it may commit. Without `limit` (the
 * default policy): a replacement that refuses any record and would leave the shop empty is
 * refused, and so is any import refusing more than 5 % of its records. With `limit`: only the
 * limit counts.
 */
export function rejectRefusal(tally: RejectTally, limit: RejectLimit | undefined): string | undefined {
  const { records, refused } = tally;
  if (refused === 0) return undefined;
  const share = records === 0 ? 0 : (refused / records) * 100;
  const shown = `${refused} of ${records} records refused (${share.toFixed(1)} %)`;
  if (limit === undefined) {
    if (tally.shopArticlesAfter === 0) return `${shown}; the replacement would leave the shop empty`;
    if (share > DEFAULT_MAX_REJECT_PERCENT) return `${shown}, more than the default ${DEFAULT_MAX_REJECT_PERCENT} %`;
    return undefined;
  }
  if ('count' in limit) return refused > limit.count ? `${shown}, more than --max-rejects ${limit.count}` : undefined;
  return share > limit.percent ? `${shown}, more than --max-rejects ${limit.percent}%` : undefined;
}

/** Thrown at the end of the record stream so the store's transaction rolls back: the import commits nothing. */
export class ImportRefusedError extends Error {
  override readonly name = 'ImportRefusedError';
}
