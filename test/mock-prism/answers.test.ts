// The mock's own answer check, without Prism: the fixtures name only declared media types, the check finds an
// undeclared status, media type or header in any answer (binary and text too, not only JSON bodies), and a live mock
// sends a download with its declared type and turns an answer with a wrong header into a 500 it records.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IR, Operation } from "../../generator/ir/types.js";
import { answerProblem, mediaTypeAllowed } from "../../mock/answer-check.js";
import { errorReply, type Reply } from "../../mock/envelope.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { isFixtureFile, loadModel } from "../../mock/model.js";
import { Validator } from "../../mock/validate.js";
import { auth, fixtureCases, formOf, ir, jsonStringsOf, operation, variantBody } from "../mock/helpers.js";

const model = loadModel();
const validator = new Validator(model);
const check = (operationId: string, reply: Reply) => answerProblem(model, validator, operation(operationId), reply);
const pdf = new TextEncoder().encode("%PDF-1.4\n");

describe("the generated fixtures", () => {
  const files = ir.operations.flatMap((op) =>
    fixtureCases(op.id).flatMap((c) =>
      Object.entries(c.responses)
        .filter(([, body]) => isFixtureFile(body))
        .map(([status, body]) => ({ op, status, contentType: isFixtureFile(body) ? body.$file.contentType : "" })),
    ),
  );

  it("hold a file answer", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it("give each file answer a media type its response declares", () => {
    const undeclared = files.filter(({ op, status, contentType }) => {
      const declared = op.responses.find((r) => r.status === status)?.contents ?? [];
      return !declared.some((c) => mediaTypeAllowed(c.mediaType, contentType));
    });
    expect(undeclared.map((f) => `${f.op.id} ${f.status}: ${f.contentType}`)).toEqual([]);
  });
});

describe("the mock's answer check", () => {
  const started = Date.now();

  it("takes a download with its declared media type and refuses another", () => {
    const file = (contentType: string): Reply => ({ status: 200, file: { name: "a.pdf", contentType, content: pdf } });
    expect(check("downloadJobFile", file("application/octet-stream"))).toBeUndefined();
    expect(check("downloadJobFile", file("application/pdf"))).toMatch(/media type application\/pdf is not declared/);
  });

  it("refuses a status the operation does not declare", () => {
    expect(check("getJob", errorReply(418, "NOT_FOUND", "teapot", started))).toMatch(/status 418 is not declared/);
  });

  it("refuses a text answer where JSON is declared", () => {
    expect(check("getJob", { status: 500, text: { body: "<html></html>", contentType: "text/html" } })).toMatch(/media type text\/html/);
  });

  it("checks a declared header against its schema", () => {
    const limited = (retryAfter: string) => errorReply(429, "RATE_LIMIT_EXCEEDED", "slow down", started, { "Retry-After": retryAfter });
    expect(check("listWebhooks", limited("3"))).toBeUndefined();
    expect(check("listWebhooks", limited("soon"))).toMatch(/header Retry-After "soon"/);
  });

  it("checks a JSON body against its schema", () => {
    expect(check("getJob", { status: 200, json: { job_status: 42 } })).toEqual(expect.any(String));
  });
});

describe("a mock whose description declares other answers", () => {
  let dir: string;
  let mock: MockServer;

  beforeAll(async () => {
    // The repository's generated output, but the download declared as a ZIP file only, and Retry-After as a text
    // no rate-limited answer of the mock has.
    dir = await mkdtemp(join(tmpdir(), "mock-answers-"));
    const generated = fileURLToPath(new URL("../../generated/", import.meta.url));
    await cp(join(generated, "fixtures"), join(dir, "fixtures"), { recursive: true });
    const changed = JSON.parse(await readFile(join(generated, "ir.json"), "utf8")) as IR;
    const operations: Operation[] = changed.operations.map((op) => ({
      ...op,
      responses: op.responses.map((r) => ({
        ...r,
        contents:
          op.id === "downloadJobFile" && r.status === "200" ? r.contents.map((c) => ({ ...c, mediaType: "application/zip" })) : r.contents,
        headers: r.headers.map((h) =>
          h.name === "Retry-After" ? { ...h, required: true, schema: { kind: "string", pattern: "^never$" } } : h,
        ),
      })),
    }));
    await writeFile(join(dir, "ir.json"), JSON.stringify({ ...changed, operations }));
    mock = await startMock({ generatedDir: dir, holdMs: 2000, jobDurationMs: 0, rateLimits: { minute: 1 } });
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sends the download with the declared media type", async () => {
    const pipeline = "pdfstudio___unlock_with_password_pdf";
    const form = formOf(variantBody(pipeline, "default"), jsonStringsOf(pipeline, "default"));
    // The one request of the minute's limit.
    const submitted = await fetch(`${mock.url}/job/add/${pipeline}`, {
      method: "POST",
      headers: auth(),
      body: form,
    });
    const text = await submitted.text();
    expect(submitted.status, text).toBe(200);
    const link = /"(http[^"]*\/job\/download\/[^"]+)"/.exec(text)?.[1];
    if (link === undefined) throw new Error(`no download link in ${text.slice(0, 300)}`);
    // A token of its own: the submitting one has used its request.
    const download = await fetch(link, { headers: auth("svc_sk_download_0001") });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/zip");
  });

  it("turns an answer whose header breaks the description into a recorded 500", async () => {
    const token = "svc_sk_limited_0001";
    await (await fetch(`${mock.url}/webhooks/list`, { headers: auth(token) })).arrayBuffer();
    const limited = await fetch(`${mock.url}/webhooks/list`, { headers: auth(token) });
    expect(limited.status).toBe(500);
    expect(await limited.text()).toContain("Retry-After");
    expect(mock.stats.invalidResponses).toEqual([expect.stringMatching(/^listWebhooks 429: header Retry-After "\d+" must match pattern/)]);
  });
});
