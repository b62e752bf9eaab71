/**
 * Deduplication of deliveries on their event id (the event id header, equal to the body's).
 *
 * The service retries a delivery that did not get a 2xx in time, so the same event can arrive more than once, also
 * while the first copy is still being processed. A receiver claims the id before processing. A copy that arrives
 * while the claim is being processed must not be acknowledged: if the first attempt then fails, the service would
 * hold the event delivered and it would be lost. So a claim is `processing` until the receiver marks it `done` (then
 * copies are acknowledged as duplicates) or releases it (then the next copy is processed). A processing claim also
 * expires after its lease, so that a receiver that died mid-event does not hold the id.
 */
export type ClaimResult =
  /** The caller owns the id now and processes the event. */
  | "claimed"
  /** Another copy is being processed: answer with a non-2xx status so that the service retries later. */
  | "processing"
  /** The event was processed: acknowledge the copy without processing it. */
  | "done";

export interface DedupeStore {
  /**
   * Atomically claims `id` for `leaseMs` milliseconds. Two concurrent calls for one id never both get "claimed". A
   * shared store implements it with one atomic operation, for example Redis `SET id processing NX PX leaseMs`, and
   * `GET id` to tell "processing" from "done" when that fails.
   */
  claim(id: string, leaseMs: number): Promise<ClaimResult>;
  /** Marks `id` processed: later copies are duplicates for the store's time to live. */
  complete(id: string): Promise<void>;
  /** Forgets `id` after processing failed or timed out, so that the next delivery of the event is processed. */
  release(id: string): Promise<void>;
}

export interface MemoryDedupeStoreOptions {
  /** Most ids remembered; the oldest claims are forgotten first. Default 10 000. */
  maxEntries?: number;
  /** How long a processed id is remembered, in milliseconds. Default 24 hours. */
  ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  state: "processing" | "done";
  expiresAt: number;
  /** Position in the eviction queue; a queue slot whose sequence differs is stale. */
  seq: number;
}

/**
 * In-memory store for a single process, bounded in size (the oldest claims are evicted first) and in time (expired
 * ids count as absent). Claims, completions and evictions take constant (amortised) time: eviction follows a queue
 * of its own instead of walking the Map from its start, which slows down as deleted entries pile up there. It does
 * not deduplicate across processes or restarts; use a shared store for that.
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Ids in claim order with the sequence they were claimed under; #head is the first live slot. */
  #queue: { id: string; seq: number }[] = [];
  #head = 0;
  #seq = 0;

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
  claim(id: string, leaseMs: number): Promise<ClaimResult> {
    const now = this.#now();
    const entry = this.#entries.get(id);
    if (entry !== undefined && entry.expiresAt > now) return Promise.resolve(entry.state);
    const seq = ++this.#seq;
    this.#entries.set(id, { state: "processing", expiresAt: now + leaseMs, seq });
    this.#queue.push({ id, seq });
    this.#evict();
    return Promise.resolve("claimed");
  }

  complete(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry !== undefined) {
      entry.state = "done";
      entry.expiresAt = this.#now() + this.ttlMs;
    }
    return Promise.resolve();
  }

  release(id: string): Promise<void> {
    this.#entries.delete(id);
    return Promise.resolve();
  }

  #evict(): void {
    while (this.#entries.size > this.maxEntries && this.#head < this.#queue.length) {
      const slot = this.#queue[this.#head++]!;
      if (this.#entries.get(slot.id)?.seq === slot.seq) this.#entries.delete(slot.id);
    }
    // Stale slots (released or re-claimed ids) and consumed ones are dropped once they outnumber the live entries.
    if (this.#queue.length - this.#head > 2 * this.maxEntries + 64 || this.#head > this.maxEntries + 64) {
      this.#queue = this.#queue.slice(this.#head).filter((slot) => this.#entries.get(slot.id)?.seq === slot.seq);
      this.#head = 0;
    }
  }
}
