// Jobs with a simulated duration: "queued", then "running", then "completed" (or the failure status asked for);
// a job can also never finish. Results are kept with a download token per job.
import { randomBytes } from "node:crypto";
import type { Pipeline, Variant } from "../generator/ir/index.js";

export type JobState = "queued" | "running" | "completed" | "failed";

export interface DownloadFile {
  name: string;
  contentType: string;
  content: Uint8Array;
}

export interface Job {
  id: string;
  token: string;
  pipeline: Pipeline;
  variant: Variant;
  createdAt: number;
  durationMs: number;
  outcome: "completed" | "failed";
  neverFinishes: boolean;
  /**
   * Set when the job's timer has fired: from then on it is finished whatever the clock says (a timer may fire a
   * millisecond before Date.now() shows its duration passed, and a held answer must then carry the result).
   */
  finished: boolean;
  /** The finished payload. */
  payload: Record<string, unknown>;
  downloadToken: string;
  credits: number;
}

export interface NewJob {
  token: string;
  pipeline: Pipeline;
  variant: Variant;
  durationMs: number;
  outcome: "completed" | "failed";
  neverFinishes: boolean;
  credits: number;
  /** Builds the payload once the job id and download token are known. */
  payload: (jobId: string, downloadToken: string) => Record<string, unknown>;
  file: DownloadFile;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

export class JobStore {
  readonly #jobs = new Map<string, Job>();
  readonly #downloads = new Map<string, DownloadFile>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #onFinished: (job: Job, state: "completed" | "failed") => void;
  #stopped = false;

  constructor(onFinished: (job: Job, state: "completed" | "failed") => void) {
    this.#onFinished = onFinished;
  }

  create(init: NewJob): Job {
    const id = `job_${randomHex(12)}`;
    const downloadToken = randomHex(24);
    const job: Job = {
      id,
      token: init.token,
      pipeline: init.pipeline,
      variant: init.variant,
      createdAt: Date.now(),
      durationMs: Math.max(0, init.durationMs),
      outcome: init.outcome,
      neverFinishes: init.neverFinishes,
      finished: false,
      payload: init.payload(id, downloadToken),
      downloadToken,
      credits: init.credits,
    };
    this.#jobs.set(id, job);
    this.#downloads.set(downloadToken, init.file);
    if (!job.neverFinishes) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (this.#stopped) return;
        job.finished = true;
        this.#onFinished(job, job.outcome);
        for (const wake of this.#waiters.get(id) ?? []) wake();
        this.#waiters.delete(id);
      }, job.durationMs);
      this.#timers.add(timer);
    }
    return job;
  }

  get(id: string): Job | undefined {
    return this.#jobs.get(id);
  }

  download(token: string): DownloadFile | undefined {
    return this.#downloads.get(token);
  }

  state(job: Job, now = Date.now()): JobState {
    const elapsed = now - job.createdAt;
    if (job.neverFinishes) return elapsed < job.durationMs * 0.25 ? "queued" : "running";
    if (job.finished || elapsed >= job.durationMs) return job.outcome;
    return elapsed < job.durationMs * 0.25 ? "queued" : "running";
  }

  isDone(job: Job): boolean {
    const state = this.state(job);
    return state === "completed" || state === "failed";
  }

  /** Resolves true when the job finished within maxMs, false when the wait ran out first. */
  waitFor(job: Job, maxMs: number): Promise<boolean> {
    if (this.isDone(job)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(job.id) ?? new Set();
      this.#waiters.set(job.id, waiters);
      const wake = () => {
        clearTimeout(timer);
        this.#timers.delete(timer);
        resolve(true);
      };
      const timer = setTimeout(
        () => {
          this.#timers.delete(timer);
          waiters.delete(wake);
          resolve(this.isDone(job));
        },
        Math.max(0, maxMs),
      );
      this.#timers.add(timer);
      waiters.add(wake);
    });
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const waiters of this.#waiters.values()) for (const wake of waiters) wake();
    this.#waiters.clear();
  }
}
