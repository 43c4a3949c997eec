import { randomUUID } from 'node:crypto';

/** One finished service request. */
export interface ExplorerRequestRecord {
  readonly requestId: string;
  readonly serviceId: string;
  readonly nodeId: string;
  readonly label: string;
  /** When it was answered, ms since the epoch. */
  readonly finishedAt: number;
  /** The reply of the explorer route it ran, as that route presents it. */
  readonly result: Readonly<Record<string, unknown>>;
}

/** How long a finished request can be read back, ms, and how many are kept at most. */
export const EXPLORER_REQUEST_TTL_MS = 60_000; // 60 s, as WombatOAM keeps an unsubscribed request
export const MAX_EXPLORER_REQUESTS = 1_000;

/**
 * The service requests answered lately (`POST /api/request/service_request/`), readable for
 * `EXPLORER_REQUEST_TTL_MS` at `GET /api/request/{request_id}`; in memory, per instance. The
 * oldest go first beyond `MAX_EXPLORER_REQUESTS`.
 */
export class ExplorerRequests {
  readonly #records = new Map<string, ExplorerRequestRecord>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Keeps a finished request under a fresh id and returns the record. */
  add(request: Omit<ExplorerRequestRecord, 'requestId' | 'finishedAt'>): ExplorerRequestRecord {
    this.#expire();
    const record = Object.freeze({ ...request, requestId: randomUUID(), finishedAt: this.#now() });
    this.#records.set(record.requestId, record);
    for (const id of this.#records.keys()) {
      if (this.#records.size <= MAX_EXPLORER_REQUESTS) break;
      this.#records.delete(id);
    }
    return record;
  }

  /** The request, or undefined when unknown or expired. */
  find(requestId: string): ExplorerRequestRecord | undefined {
    this.#expire();
    return this.#records.get(requestId);
  }

  #expire(): void {
    const oldest = this.#now() - EXPLORER_REQUEST_TTL_MS;
    // Insertion order is age order.
    for (const [id, record] of this.#records) {
      if (record.finishedAt >= oldest) break;
      this.#records.delete(id);
    }
  }
}
