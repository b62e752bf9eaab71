// The generated client against the mock on 127.0.0.1: every operation and variant from its fixture, payloads
// and bodies checked against the IR, and service errors surfaced with their code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as api from "../../generated/index.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { fixtureCases, ir, operation, responseErrors, schemaErrors, TOKEN } from "./helpers.js";

let mock: MockServer;
let client: ReturnType<typeof api.createClient>;

beforeAll(async () => {
  mock = await startMock({ holdMs: 300, jobDurationMs: 20 });
  client = api.createClient({ baseUrl: mock.url, token: TOKEN, pollIntervalMs: { min: 20, max: 40 }, retry: { maxRetries: 0 } });
});
afterAll(() => mock.stop());

/** Fixture values as client input: `$file` placeholders become Blobs with a file name. */
function clientBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clientBody);
  if (typeof value === "object" && value !== null) {
    if ("$file" in value) {
      const f = (value as { $file: { name: string; contentType: string; text: string } }).$file;
      return { data: new Blob([f.text], { type: f.contentType }), filename: f.name };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clientBody(v)]));
  }
  return value;
}

const submitJob = api.addJob as (
  client: api.Runtime,
  pipeline: string,
  body: Record<string, unknown>,
  options?: api.JobOptions,
) => Promise<api.JobResult<unknown>>;

describe("generated client against the mock", () => {
  const cases = fixtureCases("addJob");
  it.each(cases.map((c) => [c.name, c] as const))("addJob %s", async (_name, fixture) => {
    const variant = operation("addJob")
      .variants!.pipelines.find((p) => p.slug === fixture.pipeline)!
      .variants.find((v) => v.name === fixture.variant)!;
    const body = clientBody(fixture.request.body) as Record<string, unknown>;
    // Fixtures hold the decoded value of a JSON-text field; the runtime sends a string value as JSON text already,
    // so a decoded string ("example") is encoded here first.
    for (const name of variant.jsonStrings) if (typeof body[name] === "string") body[name] = JSON.stringify(body[name]);
    const result = await submitJob(client, fixture.pipeline!, body);
    expect(result.jobId).toMatch(/^job_/);
    if (variant.payload?.kind === "ref") expect(schemaErrors(variant.payload.name, result.data)).toEqual([]);
  });

  const reads = ir.operations.filter((o) => o.method === "get" && !["getJob", "downloadJobFile"].includes(o.id));
  it.each(reads.map((o) => o.id))("%s", async (id) => {
    const fixture = fixtureCases(id)[0]!;
    const fn = (api as unknown as Record<string, (c: api.Runtime, p?: Record<string, unknown>) => Promise<api.ApiResult<unknown>>>)[id]!;
    const result = await fn(client, { ...fixture.request.path, ...fixture.request.query });
    expect(responseErrors(id, 200, result.data)).toEqual([]);
  });

  it("start, wait, download and the webhook operations", async () => {
    const handle = await api.startAddJob(client, "service_voice___tts", { text: "hi", voice: "anna", priority: "stream" });
    const done = await handle.wait<{ output_files?: string[] }>();
    const download = await api.downloadFile(client, done.data.output_files![0]!);
    expect((await download.blob()).size).toBeGreaterThan(0);

    const created = await api.subscribeWebhook(client, {
      name: "e2e",
      url: "https://hooks.example.invalid/e2e",
      events: ["job.completed"],
    });
    const id = (created.data as { subscription_id: number }).subscription_id;
    expect(responseErrors("subscribeWebhook", 200, created.data)).toEqual([]);
    expect(responseErrors("listWebhooks", 200, (await api.listWebhooks(client)).data)).toEqual([]);
    expect(responseErrors("updateWebhook", 200, (await api.updateWebhook(client, { subscription_id: id, active: false })).data)).toEqual(
      [],
    );
    expect(responseErrors("deleteWebhook", 200, (await api.deleteWebhook(client, { subscription_id: id })).data)).toEqual([]);
  });

  it("a failed job and service errors surface with their codes", async () => {
    await expect(
      submitJob(client, "service_voice___tts", { text: "hi", voice: "anna" }, { headers: { "x-mock-job-outcome": "failed" } }),
    ).rejects.toBeInstanceOf(api.JobFailedError);
    await expect(api.getJob(client, { job_id: "job_unknown" })).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    await expect(submitJob(client, "service_voice___tts", { text: "hi", voice: "anna", temperature: 9 })).rejects.toMatchObject({
      code: "INVALID_REQUEST",
      status: 400,
    });
    expect(mock.stats.invalidResponses).toEqual([]);
  });
});
