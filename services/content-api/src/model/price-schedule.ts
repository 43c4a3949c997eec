/**
 * What a searchable article's prices do next (decision 0033, "Prices that end while
 * searchable"): the record as read (a BMEcat item with its ladders that have not ended, or a JSON
 * Lines record with its `priceConditions`), to be checked again at `dueAt`, when the ladder
 * chosen ends or a ladder at least as preferred starts. Articles without such a date have none.
 * Plain data: it crosses threads.
 */
export interface PriceSchedule {
  /** JSON of the record, checked again at `dueAt` by the shop's terms of that day. */
  readonly document: string;
  /** ISO 8601 date-time (UTC) at which the prices chosen may change. */
  readonly dueAt: string;
}

/** A stored row of `content_price_schedule` (migration 0013) as a value. */
export interface ScheduledArticle extends PriceSchedule {
  /** `<shopId>:<supplierArticleId>`. */
  readonly id: string;
  readonly shopId: string;
}

/** A stored row as a `ScheduledArticle`. */
export function scheduledOf(row: {
  readonly shop_id: string;
  readonly article_id: string;
  readonly document: string;
  readonly due_at: string;
}): ScheduledArticle {
  return { id: row.article_id, shopId: row.shop_id, document: row.document, dueAt: row.due_at };
}

/**
 * The moment a ladder valid until `validUntil` (BMEcat `valid_end_date`) stops being valid, as
 * `validAt` decides: the next day at 00:00 UTC for a date, a millisecond after a date-time.
 * Undefined when the text is no date.
 */
export function endMoment(validUntil: string): number | undefined {
  const at = Date.parse(validUntil);
  if (Number.isNaN(at)) return undefined;
  return validUntil.length === 10 ? at + 86_400_000 : at + 1;
}
