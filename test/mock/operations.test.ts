// Every operation and variant of the description answered from its fixture request, each answer checked against
// the IR's response schema; and every request error the mock produces, in the service's envelope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import {
  auth,
  fixtureCases,
  getJson,
  ir,
  json,
  jsonStringsOf,
  operation,
  postJson,
  responseErrors,
  schemaErrors,
  submit,
  TOKEN,
  variantBody,
} from "./helpers.js";

let mock: MockServer;

beforeAll(async () => {
  mock = await startMock({ holdMs: 2000, jobDurationMs: 20, tokens: { expired: ["svc_sk_expired"], invalid: ["svc_sk_revoked"] } });
});
afterAll(() => mock.stop());

function pathOf(operationId: string, params: Record<string, string>): string {
  let path = operation(operationId).path;
  for (const [name, value] of Object.entries(params)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  return path;
}

function queryOf(query: Record<string, unknown>): string {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return q === "" ? "" : `?${q}`;
}

const variants = ir.operations
  .find((o) => o.id === "addJob")!
  .variants!.pipelines.flatMap((p) => p.variants.map((v) => ({ pipeline: p.slug, variant: v.name })));

describe("every operation and variant from its fixture request", () => {
  it.each(variants)("addJob $pipeline / $variant", async ({ pipeline, variant }) => {
    const answer = await submit(mock.url, pipeline, variantBody(pipeline, variant), auth(), jsonStringsOf(pipeline, variant));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseErrors("addJob", 200, answer.body)).toEqual([]);
    expect(answer.body.job_id).toMatch(/^job_/);
  });

  it("covers every pipeline variant that has a fixture", () => {
    const fixtureVariants = fixtureCases("addJob").map((c) => ({ pipeline: c.pipeline, variant: c.variant }));
    expect(fixtureVariants).toEqual(expect.arrayContaining(variants));
  });

  const reads = ir.operations.filter((o) => o.method === "get" && !["getJob", "downloadJobFile"].includes(o.id)).map((o) => o.id);
  it.each(reads)("%s", async (id) => {
    const fixture = fixtureCases(id)[0]!;
    const answer = await getJson(mock.url, `${pathOf(id, fixture.request.path)}${queryOf(fixture.request.query)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseErrors(id, 200, answer.body)).toEqual([]);
    expect(answer.body._billing).toMatchObject({ requests: { limits: expect.any(Object), remaining: expect.any(Object) } });
  });

  it("the webhook operations from their fixture requests", async () => {
    const receiverUrl = "https://hooks.example.invalid/h";
    const subscribeBody = { ...(fixtureCases("subscribeWebhook")[0]!.request.body ?? {}), url: receiverUrl };
    const created = await postJson(mock.url, "/webhooks/subscribe", subscribeBody);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(responseErrors("subscribeWebhook", 200, created.body)).toEqual([]);
    const id = created.body.subscription_id;
    expect(id).toEqual(expect.any(Number));

    const list = await getJson(mock.url, "/webhooks/list");
    expect(responseErrors("listWebhooks", 200, list.body)).toEqual([]);
    for (const op of ["updateWebhook", "testWebhook", "deleteWebhook"]) {
      const body = { ...(fixtureCases(op)[0]!.request.body ?? {}), subscription_id: id };
      const answer = await postJson(mock.url, operation(op).path, body);
      expect(answer.status, `${op} ${JSON.stringify(answer.body)}`).toBe(200);
      expect(responseErrors(op, 200, answer.body)).toEqual([]);
    }
  });

  it("answered nothing that failed its own response check", () => {
    expect(mock.stats.invalidResponses).toEqual([]);
  });
});

describe("request validation", () => {
  const ocr = () => variantBody("service_aiocr___generate", "us_tax_forms");
  const ocrJson = jsonStringsOf("service_aiocr___generate", "us_tax_forms");

  async function expectError(answer: { status: number; body: Record<string, unknown> }, status: number, code: string, mention?: string) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ status: "error", code });
    expect(answer.body.processing_time).toEqual(expect.any(String));
    expect(schemaErrors("ErrorResponse", answer.body)).toEqual([]);
    if (mention !== undefined) expect(String(answer.body.message)).toContain(mention);
  }

  it("400 INVALID_REQUEST names a missing required field", async () => {
    const body = ocr();
    delete body.model;
    await expectError(await submit(mock.url, "service_aiocr___generate", body, auth(), ocrJson), 400, "INVALID_REQUEST", "model");
  });

  it("400 INVALID_REQUEST names a value outside its enum", async () => {
    await expectError(
      await submit(mock.url, "service_aiocr___generate", { ...ocr(), model: "gigantic" }, auth(), ocrJson),
      400,
      "INVALID_REQUEST",
      "model",
    );
  });

  it("400 INVALID_REQUEST names a value outside its range", async () => {
    const body = { ...variantBody("service_voice___tts", "default"), temperature: 7 };
    await expectError(await submit(mock.url, "service_voice___tts", body), 400, "INVALID_REQUEST", "temperature");
  });

  it("400 INVALID_REQUEST for a field the variant does not take", async () => {
    await expectError(
      await submit(mock.url, "service_aiocr___generate", { ...ocr(), colour: "blue" }, auth(), ocrJson),
      400,
      "INVALID_REQUEST",
      "colour",
    );
  });

  it("400 INVALID_REQUEST when an exactly-one-of group has none or both", async () => {
    const both = { ...variantBody("workflow", "pdf_ai_split"), pofid: "POF-1" };
    await expectError(await submit(mock.url, "workflow", both), 400, "INVALID_REQUEST", "exactly one of");
    const none = variantBody("workflow", "pdf_ai_split");
    delete none.file;
    await expectError(await submit(mock.url, "workflow", none), 400, "INVALID_REQUEST", "exactly one of");
    const pofidOnly = { ...none, pofid: "POF-1" };
    expect((await submit(mock.url, "workflow", pofidOnly)).status).toBe(200);
  });

  it("400 INVALID_REQUEST for a discriminator value no variant has", async () => {
    const body = { ...variantBody("workflow", "pdf_ai_split"), template: "no_such_template" };
    await expectError(await submit(mock.url, "workflow", body), 400, "INVALID_REQUEST", "template");
  });

  it("chooses the server-default variant when the discriminator is absent", async () => {
    const body = variantBody("workflow", "pdf_ai_split");
    delete body.template;
    const answer = await submit(mock.url, "workflow", body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it("400 INVALID_REQUEST for a JSON-text field that is not JSON", async () => {
    const form = new FormData();
    const body = ocr();
    for (const [k, v] of Object.entries(body)) {
      if (k === "file_1") form.append(k, new Blob(["%PDF-1.4"]), "a.pdf");
      else if (k !== "idp_fields") form.append(k, String(v));
    }
    form.append("idp_fields", "[not json");
    const answer = await json(await fetch(`${mock.url}/job/add/service_aiocr___generate`, { method: "POST", headers: auth(), body: form }));
    await expectError(answer, 400, "INVALID_REQUEST", "idp_fields");
  });

  it("400 INVALID_REQUEST when a file field carries text", async () => {
    await expectError(
      await submit(mock.url, "service_aiocr___generate", { ...ocr(), file_1: "not a file" }, auth(), ocrJson),
      400,
      "INVALID_REQUEST",
      "file_1",
    );
  });

  it("400 JOB_CONFIG_INVALID for a dot in the pipeline slug", async () => {
    await expectError(await submit(mock.url, "service_aiocr.generate", ocr(), auth(), ocrJson), 400, "JOB_CONFIG_INVALID");
  });

  it("400 INVALID_REQUEST for an unknown pipeline", async () => {
    await expectError(await submit(mock.url, "nothing___here", ocr(), auth(), ocrJson), 400, "INVALID_REQUEST", "pipeline");
  });

  it("400 INVALID_REQUEST for a JSON job body; urlencoded is accepted", async () => {
    const asJson = await postJson(mock.url, "/job/add/service_voice___tts", { text: "hi", voice: "anna" });
    await expectError(asJson, 400, "INVALID_REQUEST", "media type");
    const urlencoded = await fetch(`${mock.url}/job/add/service_voice___tts`, {
      method: "POST",
      headers: auth(),
      body: new URLSearchParams({ text: "hi", voice: "anna", priority: "stream" }),
    });
    expect(urlencoded.status).toBe(200);
  });

  it("400 INVALID_REQUEST for a query parameter out of range, 405 for a wrong method", async () => {
    await expectError(await getJson(mock.url, "/analytics/audit-center?limit=9999"), 400, "INVALID_REQUEST", "limit");
    await expectError(await getJson(mock.url, "/analytics/activity-users?period=1d"), 400, "INVALID_REQUEST", "period");
    // An empty value is a value, checked as such, not taken for an absent parameter.
    await expectError(await getJson(mock.url, "/analytics/activity-users?period="), 400, "INVALID_REQUEST", "period");
    await expectError(await getJson(mock.url, "/analytics/audit-center?limit="), 400, "INVALID_REQUEST", "limit");
    await expectError(await postJson(mock.url, "/analytics/audit-center", {}), 405, "INVALID_REQUEST", "POST");
  });

  it("400 INVALID_REQUEST for a webhook body that misses a required field", async () => {
    await expectError(
      await postJson(mock.url, "/webhooks/subscribe", { url: "https://example.com/h", events: ["job.completed"] }),
      400,
      "INVALID_REQUEST",
      "name",
    );
  });
});

describe("authentication", () => {
  it("401 AUTH_REQUIRED without a token on a non-product call", async () => {
    const answer = await getJson(mock.url, "/webhooks/list", {});
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe("AUTH_REQUIRED");
    expect(responseErrors("listWebhooks", 401, answer.body)).toEqual([]);
  });

  it("403 TIER_RESTRICTED for a job submitted without a token", async () => {
    const answer = await submit(mock.url, "service_voice___tts", variantBody("service_voice___tts", "default"), {});
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe("TIER_RESTRICTED");
    expect(responseErrors("addJob", 403, answer.body)).toEqual([]);
  });

  it.each([
    ["svc_xx_unknownprefix", "INVALID_TOKEN"],
    ["svc_sk_revoked", "INVALID_TOKEN"],
    ["svc_sk_expired", "BEARERTOKEN_EXPIRED"],
  ])("401 for token %s is %s", async (token, code) => {
    const answer = await getJson(mock.url, "/webhooks/list", auth(token));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe(code);
    expect(responseErrors("listWebhooks", 401, answer.body)).toEqual([]);
  });
});

describe("not found", () => {
  it("404 NOT_FOUND for an unknown job, an unknown download token and an unknown path", async () => {
    const job = await getJson(mock.url, "/job/get/job_doesnotexist");
    expect(job.status).toBe(404);
    expect(job.body.code).toBe("NOT_FOUND");
    expect(responseErrors("getJob", 404, job.body)).toEqual([]);
    const download = await getJson(mock.url, "/job/download/0123456789abcdef");
    expect(download.status).toBe(404);
    expect(responseErrors("downloadJobFile", 404, download.body)).toEqual([]);
    const path = await getJson(mock.url, "/no/such/endpoint");
    expect(path.status).toBe(404);
    expect(path.body.code).toBe("NOT_FOUND");
  });
});

describe("credit ledger", () => {
  it("charges base credits x lane multiplier and answers 402 INSUFFICIENT_CREDITS when the balance is short", async () => {
    const token = "svc_sk_ledger_test";
    const pricing = operation("addJob").variants!.pricing!;
    const base = operation("addJob").variants!.pipelines.find((p) => p.slug === "service_voice___tts")!.baseCredits!;
    const expected = Math.max(Math.ceil(base * pricing.laneMultipliers.sla_1h!), pricing.minimumCharge ?? 0);
    mock.setCredits(token, expected + 3);
    const body = { ...variantBody("service_voice___tts", "default"), priority: "stream", processing_lane: "sla_1h" };
    const first = await submit(mock.url, "service_voice___tts", body, auth(token));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const billing = first.body._billing as Record<string, unknown>;
    expect(billing.credits_billed).toBe(expected);
    expect(billing.remaining_credits).toBe(3);
    expect(billing.job).toMatchObject({ credits_billed: expected, default_credits: base });
    const second = await submit(mock.url, "service_voice___tts", body, auth(token));
    expect(second.status).toBe(402);
    expect(second.body.code).toBe("INSUFFICIENT_CREDITS");
    expect(responseErrors("addJob", 402, second.body)).toEqual([]);
  });
});

describe("rate limits", () => {
  it("429 RATE_LIMIT_EXCEEDED with Retry-After past the per-minute window, and the windows in _billing.requests", async () => {
    const limited = await startMock({ rateLimits: { second: 100, minute: 3 } });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await getJson(limited.url, "/webhooks/list", auth(TOKEN)));
      expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
      const requests = (answers[2]!.body._billing as { requests: Record<string, Record<string, number>> }).requests;
      expect(requests.limits).toMatchObject({ second: 100, minute: 3 });
      expect(requests.current).toMatchObject({ minute: 3 });
      expect(requests.remaining).toMatchObject({ minute: 0 });
      const refused = answers[3]!;
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(responseErrors("listWebhooks", 429, refused.body)).toEqual([]);
      // Another token has its own windows.
      expect((await getJson(limited.url, "/webhooks/list", auth("svc_pk_other"))).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
