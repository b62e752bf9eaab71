// Fault injection, per request (x-mock-fault) and per run (options / setFaults), each kind counted, with the
// submissions the server really received.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import { auth, formOf, getJson, json, responseErrors, submit, variantBody } from "./helpers.js";

let mock: MockServer;

beforeEach(async () => {
  mock = await startMock({ holdMs: 500, jobDurationMs: 10, slowHeadersMs: 400 });
});
afterEach(() => mock.stop());

const TTS = "service_voice___tts";
const ttsBody = () => ({ ...variantBody(TTS, "default"), priority: "stream" });

function post(headers: Record<string, string>): Promise<Response> {
  return fetch(`${mock.url}/job/add/${TTS}`, { method: "POST", headers: { ...auth(), ...headers }, body: formOf(ttsBody()) });
}

describe("per-request faults", () => {
  it.each([
    ["500", 500, "INTERNAL_ERROR"],
    ["503", 503, "SERVICE_UNAVAILABLE"],
  ])("%s answers the error envelope and creates no job", async (kind, status, code) => {
    const answer = await json(await post({ "x-mock-fault": kind }));
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(responseErrors("addJob", status, answer.body)).toEqual([]);
    if (kind === "503") expect(answer.headers.get("retry-after")).toBe("1");
    expect(mock.stats.faults[kind as "500"]).toBe(1);
    expect(mock.stats.submissions).toBe(1);
    expect(mock.stats.jobsCreated).toBe(0);
  });

  it("502 answers a proxy's HTML page", async () => {
    const response = await post({ "x-mock-fault": "502" });
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("Bad Gateway");
    expect(mock.stats.faults["502"]).toBe(1);
  });

  it("x-mock-fault-times fails only the first n attempts of the same idempotency key", async () => {
    const headers = { "x-mock-fault": "503", "x-mock-fault-times": "2", "Idempotency-Key": "key-1" };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(headers)).status);
    expect(statuses).toEqual([503, 503, 200]);
    // Another key starts its own count.
    expect((await post({ ...headers, "Idempotency-Key": "key-2" })).status).toBe(503);
    expect(mock.stats.faults["503"]).toBe(3);
    expect(mock.stats.requests.addJob).toBe(4);
    expect(mock.stats.submissions).toBe(4);
    expect(mock.stats.jobsCreated).toBe(1);
  });

  it("reset-before-body closes the connection before the submission is read", async () => {
    await expect(post({ "x-mock-fault": "reset-before-body" })).rejects.toThrow();
    expect(mock.stats.faults["reset-before-body"]).toBe(1);
    expect(mock.stats.requests.addJob).toBe(1);
    expect(mock.stats.submissions).toBe(0);
    expect(mock.stats.jobsCreated).toBe(0);
  });

  it("reset-after-body closes the connection after the job was created", async () => {
    await expect(post({ "x-mock-fault": "reset-after-body" })).rejects.toThrow();
    expect(mock.stats.faults["reset-after-body"]).toBe(1);
    expect(mock.stats.submissions).toBe(1);
    expect(mock.stats.jobsCreated).toBe(1);
  });

  it("slow-headers delays the answer's headers, then answers normally", async () => {
    // The caller gives up while the headers are held back: aborted once the mock holds the request (a fixed 50 ms
    // timer could fire before the request even reached a busy machine's mock, which then never counted it).
    const controller = new AbortController();
    const impatient = fetch(`${mock.url}/webhooks/list`, {
      headers: { ...auth(), "x-mock-fault": "slow-headers", "x-mock-fault-delay-ms": "10000" },
      signal: controller.signal,
    });
    for (let waited = 0; mock.stats.faults["slow-headers"] !== 1 && waited < 30_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort();
    await expect(impatient).rejects.toThrow();
    const patient = await getJson(mock.url, "/webhooks/list", {
      ...auth(),
      "x-mock-fault": "slow-headers",
      "x-mock-fault-delay-ms": "100",
    });
    expect(patient.status).toBe(200);
    expect(mock.stats.faults["slow-headers"]).toBe(2);
  });

  it("malformed-json sends a JSON content type over a cut body", async () => {
    const response = await post({ "x-mock-fault": "malformed-json" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    await expect(response.json()).rejects.toThrow();
    expect(mock.stats.faults["malformed-json"]).toBe(1);
    expect(mock.stats.jobsCreated).toBe(1);
  });

  it("never-finishes keeps the job running past the hold", async () => {
    const answer = await submit(mock.url, TTS, ttsBody(), { ...auth(), "x-mock-fault": "never-finishes" });
    expect(answer.status).toBe(202);
    const later = await getJson(mock.url, `/job/get/${answer.body.job_id}`);
    expect(later.body.job_status).toBe("running");
    expect(mock.stats.faults["never-finishes"]).toBe(1);
  });

  it("429 answers RATE_LIMIT_EXCEEDED with Retry-After and creates no job", async () => {
    const answer = await json(await post({ "x-mock-fault": "429" }));
    expect(answer.status).toBe(429);
    expect(answer.body.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(responseErrors("addJob", 429, answer.body)).toEqual([]);
    expect(mock.stats.faults["429"]).toBe(1);
    expect(mock.stats.jobsCreated).toBe(0);
  });

  it("trickle sends the headers at once and the body in pieces over the delay", async () => {
    const began = Date.now();
    const response = await fetch(`${mock.url}/webhooks/list`, {
      headers: { ...auth(), "x-mock-fault": "trickle", "x-mock-fault-delay-ms": "400" },
    });
    const headersAfter = Date.now() - began;
    const body = (await response.json()) as Record<string, unknown>;
    const bodyAfter = Date.now() - began;
    expect(response.status).toBe(200);
    expect(body.status).toBe("success");
    // The pieces are spread over 400 ms: the whole body cannot have come with the headers.
    expect(bodyAfter - headersAfter).toBeGreaterThanOrEqual(250);
    expect(mock.stats.faults.trickle).toBe(1);
  });

  it("an unknown fault kind is ignored", async () => {
    expect((await post({ "x-mock-fault": "gremlins" })).status).toBe(200);
    expect(mock.stats.faults).toEqual({});
  });
});

describe("per-run faults", () => {
  it("rules in the options fail the first n matching requests of the named operations", async () => {
    const run = await startMock({ faults: [{ kind: "500", operations: ["getJob"], times: 2 }] });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await getJson(run.url, "/job/get/job_unknown")).status);
      expect(statuses).toEqual([500, 500, 404]);
      expect((await getJson(run.url, "/webhooks/list")).status).toBe(200);
      expect(run.stats.faults["500"]).toBe(2);
      expect(run.stats.requests.getJob).toBe(3);
    } finally {
      await run.stop();
    }
  });

  it("rules with a rate hit about that share of the requests, one rule per request, repeatably by seed", async () => {
    const rules = [
      { kind: "500" as const, rate: 0.1 },
      { kind: "503" as const, rate: 0.2 },
    ];
    const statusesOf = async (seed: number) => {
      const run = await startMock({ faults: rules, seed, rateLimits: { second: 10_000, minute: 100_000 } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 300; i++) statuses.push((await getJson(run.url, "/webhooks/list")).status);
        return statuses;
      } finally {
        await run.stop();
      }
    };
    const first = await statusesOf(7);
    const share = (status: number) => first.filter((s) => s === status).length / first.length;
    expect(share(500)).toBeGreaterThan(0.04);
    expect(share(500)).toBeLessThan(0.18);
    expect(share(503)).toBeGreaterThan(0.12);
    expect(share(503)).toBeLessThan(0.3);
    expect(share(200)).toBeCloseTo(1 - share(500) - share(503), 5);
    expect(await statusesOf(7)).toEqual(first);
  });

  it("the request log keeps each request's operation, key, fault, status and the job it created or named", async () => {
    const run = await startMock({ holdMs: 500, jobDurationMs: 10, recordRequests: true });
    try {
      const body = { ...ttsBody(), text: "logged" };
      const held = await submit(run.url, TTS, body, { ...auth(), "Idempotency-Key": "key-log" });
      await expect(
        fetch(`${run.url}/job/add/${TTS}`, {
          method: "POST",
          headers: { ...auth(), "x-mock-fault": "reset-before-body" },
          body: formOf(body),
        }),
      ).rejects.toThrow();
      await getJson(run.url, `/job/get/${held.body.job_id}`);
      await getJson(run.url, `/job/get/${held.body.job_id}`, { ...auth(), "x-mock-fault": "503" });
      await submit(run.url, TTS, { ...body, text: "refused" }, { ...auth(), "x-mock-fault": "429" });
      const log = run.requestLog();
      expect(log.map((e) => [e.seq, e.operationId, e.status, e.fault])).toEqual([
        [1, "addJob", 200, undefined],
        [2, "addJob", undefined, "reset-before-body"],
        [3, "getJob", 200, undefined],
        [4, "getJob", 503, "503"],
        [5, "addJob", 429, "429"],
      ]);
      expect(log[0]).toMatchObject({ idempotencyKey: "key-log", jobId: held.body.job_id, created: true, fields: { text: "logged" } });
      expect(log[1]?.jobId).toBeUndefined();
      expect(log[2]).toMatchObject({ jobId: held.body.job_id });
      expect(log[2]?.created).toBeUndefined();
      // A request the fault answered was not processed: it names no job, but its path parameters are kept.
      expect(log[3]?.jobId).toBeUndefined();
      expect(log[3]?.params).toEqual({ job_id: held.body.job_id });
      expect(log[3]?.retryAfter).toBe("1");
      // A refused submission keeps its fields, and creates nothing.
      expect(log[4]).toMatchObject({ retryAfter: "1", fields: { text: "refused" } });
      expect(log[4]?.created).toBeUndefined();
      for (const e of log) expect(e.endedAt).toBeGreaterThanOrEqual(e.at);
      const served = await getJson(run.url, "/_mock/requests");
      expect((served.body.requests as unknown[]).length).toBe(5);
    } finally {
      await run.stop();
    }
  });

  it("keeps no request log unless asked", async () => {
    await getJson(mock.url, "/webhooks/list");
    expect(mock.requestLog()).toEqual([]);
  });

  it("a duration range gives jobs durations drawn from it", async () => {
    const run = await startMock({ holdMs: 150, jobDurationMs: [0, 400], seed: 3, recordRequests: true });
    try {
      const statuses = new Set<number>();
      for (let i = 0; i < 12; i++) statuses.add((await submit(run.url, TTS, ttsBody(), auth())).status);
      // Some jobs end within the 150 ms hold (200), some after it (202).
      expect([...statuses].sort()).toEqual([200, 202]);
    } finally {
      await run.stop();
    }
  });

  it("setFaults replaces the rules during a run", async () => {
    mock.setFaults([{ kind: "503" }]);
    expect((await getJson(mock.url, "/webhooks/list")).status).toBe(503);
    mock.setFaults([]);
    expect((await getJson(mock.url, "/webhooks/list")).status).toBe(200);
    expect(mock.stats.faults["503"]).toBe(1);
  });
});
