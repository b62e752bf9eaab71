/**
 * Deduplication of deliveries on their event id (X-Service-Event-ID = `event_id`).
 *
 * The service retries a delivery that did not get a 2xx in time, so the same event can arrive more than once, also
 * concurrently. A receiver claims the id before processing: only the first claim wins; the others are acknowledged
 * without processing. When processing fails, the claim is released so that the service's retry is processed.
 */
export interface DedupeStore {
  /**
   * Atomically records `id` and returns true when it was not recorded yet (the caller processes the event), false
   * when it was (a duplicate, or a copy still being processed). Two concurrent calls for one id never both return
   * true. A shared store implements it with one atomic operation (for example Redis `SET id 1 NX PX ttl`, or an
   * INSERT on a unique key).
   */
  claim(id: string): Promise<boolean>;
  /** Forgets `id` after processing failed, so that the next delivery of the event is processed. */
  release(id: string): Promise<void>;
}

export interface MemoryDedupeStoreOptions {
  /** Most ids remembered; the oldest claims are forgotten first. Default 10 000. */
  maxEntries?: number;
  /** How long an id is remembered, in milliseconds. Default 24 hours. */
  ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/**
 * In-memory store for a single process: bounded in size (insertion order eviction) and in time (TTL). It does not
 * deduplicate across processes or restarts; use a shared store for that.
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly #now: () => number;
  /** id -> expiry time; Map keeps insertion order, which is expiry order as the TTL is constant. */
  readonly #entries = new Map<string, number>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    const { maxEntries = 10_000, ttlMs = 24 * 60 * 60 * 1000, now = Date.now } = options;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
    if (!(ttlMs > 0)) throw new RangeError("ttlMs must be positive");
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Synchronous inside, so atomic with respect to other claims in this process. */
  claim(id: string): Promise<boolean> {
    const now = this.#now();
    this.#purgeExpired(now);
    const expiry = this.#entries.get(id);
    if (expiry !== undefined && expiry > now) return Promise.resolve(false);
    this.#entries.delete(id);
    this.#entries.set(id, now + this.ttlMs);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    return Promise.resolve(true);
  }

  release(id: string): Promise<void> {
    this.#entries.delete(id);
    return Promise.resolve();
  }

  #purgeExpired(now: number): void {
    for (const [id, expiry] of this.#entries) {
      if (expiry > now) break;
      this.#entries.delete(id);
    }
  }
}
