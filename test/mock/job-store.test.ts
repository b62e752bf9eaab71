// The mock's job store: a job's state follows the clock, and once its timer has fired it is finished whatever the
// clock says, so that an answer held until the job ended carries its result.
import { afterEach, describe, expect, it } from "vitest";
import { type Job, JobStore, type NewJob } from "../../mock/jobs.js";

let store: JobStore | undefined;
afterEach(() => store?.stop());

const newJob = (durationMs: number): NewJob => ({
  token: "t",
  // What the store keeps for the routes; its states never read them.
  pipeline: {} as NewJob["pipeline"],
  variant: {} as NewJob["variant"],
  durationMs,
  outcome: "completed",
  neverFinishes: false,
  credits: 1,
  payload: (id) => ({ id }),
  file: { name: "f.txt", contentType: "text/plain", content: new Uint8Array() },
});

describe("the mock's job store", () => {
  it("is queued, then running, then its outcome, by the clock", () => {
    store = new JobStore(() => {});
    const job: Job = store.create(newJob(1000));
    expect(store.state(job, job.createdAt)).toBe("queued");
    expect(store.state(job, job.createdAt + 500)).toBe("running");
    expect(store.state(job, job.createdAt + 1000)).toBe("completed");
  });

  it("is finished once its timer has fired, even when the clock shows less than its duration", async () => {
    const finished: string[] = [];
    store = new JobStore((job, state) => finished.push(`${job.id} ${state}`));
    const job = store.create(newJob(20));
    expect(await store.waitFor(job, 5000)).toBe(true);
    expect(finished).toEqual([`${job.id} completed`]);
    // A clock a little behind the timer, as Date.now() can be when the timer fires.
    expect(store.state(job, job.createdAt + 19)).toBe("completed");
    expect(store.isDone(job)).toBe(true);
  });
});
