import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OperationSpec, RequestEncodingError } from "../../runtime/index.js";
import { type FormArrayNames, multipartSerializer, prepareBody, urlencodedSerializer } from "../../runtime/encode.js";
import { serviceModel } from "../../../../generated/model.js";
import { runtimeFor } from "./helpers/model.js";
import { formOf, type Received, sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), "runtime-encode-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const DONE = { status: "success", job_id: "j", result: {} };

async function fileText(form: FormData, name: string): Promise<{ name: string; type: string; text: string }> {
  const value = form.get(name);
  if (!(value instanceof File)) throw new Error(`${name} is not a file part`);
  return { name: value.name, type: value.type, text: await value.text() };
}

async function submitted(
  body: Record<string, unknown>,
  options: Parameters<ReturnType<typeof runtimeFor>["submitJob"]>[2] = {},
): Promise<Received> {
  server.handle((_req, res) => sendJson(res, 200, DONE));
  await runtimeFor(server).submitJob("workflow", body, options);
  expect(server.received).toHaveLength(1);
  return server.received[0]!;
}

describe("multipart/form-data (default)", () => {
  it("encodes scalars, arrays, nested values and JSON-text fields", async () => {
    const received = await submitted(
      {
        template: "pdf_ai_split",
        pages: 3,
        ratio: 1.5,
        client_wait: true,
        async_only: false,
        skipped: undefined,
        nothing: null,
        when: new Date("2026-01-02T03:04:05.000Z"),
        source_url: new URL("https://files.example.com/a.pdf"),
        tags: ["a", "b"],
        splits: [{ pages: "1-2", name: "first" }, { pages: "3" }],
        meta: { owner: { id: 7 }, flag: false },
        idp_fields: [{ name: "iban" }],
        redact_boxes: "full page", // a string value is JSON text too: the type is the decoded value
      },
      { jsonStrings: ["idp_fields", "redact_boxes"] },
    );
    expect(received.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(received.headers.authorization).toBe("Bearer svc_sk_live_0123456789abcdef");
    const form = await formOf(received);
    expect([...form.entries()]).toEqual([
      ["template", "pdf_ai_split"],
      ["pages", "3"],
      ["ratio", "1.5"],
      ["client_wait", "true"],
      ["async_only", "false"],
      ["when", "2026-01-02T03:04:05.000Z"],
      ["source_url", "https://files.example.com/a.pdf"],
      ["tags[]", "a"],
      ["tags[]", "b"],
      ["splits[0][pages]", "1-2"],
      ["splits[0][name]", "first"],
      ["splits[1][pages]", "3"],
      ["meta[owner][id]", "7"],
      ["meta[flag]", "false"],
      ["idp_fields", '[{"name":"iban"}]'],
      ["redact_boxes", '"full page"'],
    ]);
  });

  it("sends the pipeline's declared JSON-text fields as JSON without being told", async () => {
    const received = await submitted({
      template: "document_anonymize_finalize",
      preview_images: ["https://x/1.png"],
      redact_boxes: [{ x: 1 }],
    });
    const form = await formOf(received);
    expect(form.get("preview_images")).toBe('["https://x/1.png"]');
    expect(form.get("redact_boxes")).toBe('[{"x":1}]');
    expect(form.get("preview_images[]")).toBeNull();
  });

  it("encodes every kind of file value", async () => {
    const path = join(dir, "scan.pdf");
    await writeFile(path, "%PDF-path");
    const bytes = new TextEncoder().encode("bytes-u8");
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("web-"));
        controller.enqueue(new TextEncoder().encode("stream"));
        controller.close();
      },
    });
    const received = await submitted({
      file: new File(["file-object"], "invoice.pdf", { type: "application/pdf" }),
      file_1: new Blob(["blob-data"], { type: "image/png" }),
      file_2: bytes,
      file_3: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 5),
      file_4: web,
      file_5: Readable.from([Buffer.from("node-"), Buffer.from("readable")]),
      file_6: { path, contentType: "application/pdf" },
      file_7: { path, filename: "renamed.pdf" },
      file_8: { data: new TextEncoder().encode("named bytes"), filename: "notes.txt", contentType: "text/plain" },
      files: [new File(["one"], "1.pdf"), new File(["two"], "2.pdf")],
    });
    const form = await formOf(received);
    expect(await fileText(form, "file")).toEqual({ name: "invoice.pdf", type: "application/pdf", text: "file-object" });
    expect(await fileText(form, "file_1")).toEqual({ name: "file", type: "image/png", text: "blob-data" });
    expect(await fileText(form, "file_2")).toEqual({ name: "file", type: "application/octet-stream", text: "bytes-u8" });
    expect(await fileText(form, "file_3")).toEqual({ name: "file", type: "application/octet-stream", text: "bytes" });
    expect(await fileText(form, "file_4")).toEqual({ name: "file", type: "application/octet-stream", text: "web-stream" });
    expect(await fileText(form, "file_5")).toEqual({ name: "file", type: "application/octet-stream", text: "node-readable" });
    expect(await fileText(form, "file_6")).toEqual({ name: "scan.pdf", type: "application/pdf", text: "%PDF-path" });
    expect(await fileText(form, "file_7")).toEqual({ name: "renamed.pdf", type: "application/octet-stream", text: "%PDF-path" });
    expect(await fileText(form, "file_8")).toEqual({ name: "notes.txt", type: "text/plain", text: "named bytes" });
    const many = form.getAll("files[]");
    expect(many.map((f) => (f as File).name)).toEqual(["1.pdf", "2.pdf"]);
    expect(await Promise.all(many.map((f) => (f as File).text()))).toEqual(["one", "two"]);
  });

  it("sends the same stream bytes again on a retry", async () => {
    server.handle((_req, res, index) =>
      index === 0 ? sendJson(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "x" }) : sendJson(res, 200, DONE),
    );
    await runtimeFor(server).submitJob("workflow", { file: Readable.from([Buffer.from("once")]) });
    expect(server.received).toHaveLength(2);
    for (const received of server.received) expect(await fileText(await formOf(received), "file")).toMatchObject({ text: "once" });
  });

  it("refuses a missing file before sending", async () => {
    server.handle((_req, res) => sendJson(res, 200, DONE));
    const error = await runtimeFor(server)
      .submitJob("workflow", { file: { path: join(dir, "missing.pdf") } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestEncodingError);
    expect(server.received).toHaveLength(0);
  });
});

describe("application/x-www-form-urlencoded (on request)", () => {
  it("encodes the same way with the urlencoded content type", async () => {
    const received = await submitted(
      { pofid: "P-1", client_wait: false, tags: ["x", "y"], splits: [{ pages: "1" }], idp_fields: [] },
      { mediaType: "application/x-www-form-urlencoded", jsonStrings: ["idp_fields"] },
    );
    expect(received.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect([...new URLSearchParams(received.body.toString())]).toEqual([
      ["pofid", "P-1"],
      ["client_wait", "false"],
      ["tags[]", "x"],
      ["tags[]", "y"],
      ["splits[0][pages]", "1"],
      ["idp_fields", "[]"],
    ]);
    const form = await formOf(received);
    expect(form.get("client_wait")).toBe("false");
  });

  it("refuses a file before sending", async () => {
    server.handle((_req, res) => sendJson(res, 200, DONE));
    const error = await runtimeFor(server)
      .submitJob("workflow", { file: new Blob(["x"]) }, { mediaType: "application/x-www-form-urlencoded" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestEncodingError);
    expect(server.received).toHaveLength(0);
  });
});

describe("JSON and query", () => {
  const SUBSCRIBE: OperationSpec = {
    operationId: "subscribeWebhook",
    method: "POST",
    path: "/webhooks/subscribe",
    requestMediaType: "application/json",
    response: "json",
    idempotent: true,
  };
  const AUDIT: OperationSpec = {
    operationId: "getAuditCenter",
    method: "GET",
    path: "/analytics/audit-center",
    response: "json",
  };

  it("sends JSON only where the operation says so, even when a form encoding is asked", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const body = { url: "https://hooks.example.com/x", events: ["document.uploaded"], active: true, retry: { max: 3 } };
    await runtimeFor(server).call(SUBSCRIBE, { body }, { mediaType: "multipart/form-data" });
    expect(server.received[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.received[0]?.body.toString() ?? "")).toEqual(body);
  });

  it("serialises query values (booleans as true/false) and leaves out undefined", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", findings: [], total: 0 }));
    await runtimeFor(server).call(AUDIT, {
      query: { limit: 10, offset: 0, require_review: true, severity: "high", workspace_id: undefined },
    });
    expect(server.received[0]?.url).toBe("/latest/analytics/audit-center?limit=10&offset=0&require_review=true&severity=high");
    expect(server.received[0]?.method).toBe("GET");
    expect(server.received[0]?.headers["content-type"]).toBeUndefined();
  });

  it("encodes path parameters", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const GET_DOC: OperationSpec = {
      operationId: "getDocument",
      method: "GET",
      path: "/documents/document-get/{pofid}",
      response: "json",
    };
    await runtimeFor(server).call(GET_DOC, { path: { pofid: "a/b c" } });
    expect(server.received[0]?.url).toBe("/latest/documents/document-get/a%2Fb%20c");
  });
});

describe("bodies of another media type (application/octet-stream, text/plain)", () => {
  const UPLOAD: OperationSpec = {
    operationId: "uploadAsset",
    method: "POST",
    path: "/assets",
    requestMediaType: "application/octet-stream",
    response: "json",
  };
  const RENDER: OperationSpec = { ...UPLOAD, operationId: "renderRaw", path: "/render", requestMediaType: "text/plain" };

  it("sends bytes as they are, under the operation's media type, and asks for JSON", async () => {
    server.handle((_req, res) => sendJson(res, 200, { id: 1 }));
    const bytes = new Uint8Array([0, 1, 2, 250]);
    await runtimeFor(server).call(UPLOAD, { body: { data: bytes, filename: "a.bin" } });
    const [received] = server.received;
    expect(received!.headers["content-type"]).toBe("application/octet-stream");
    expect([...received!.body]).toEqual([0, 1, 2, 250]);
    expect(received!.headers.accept).toMatch(/^application\/json/);
  });

  it("sends text as it is", async () => {
    server.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await runtimeFor(server).call(RENDER, { body: "# Hello" });
    expect(server.received[0]!.headers["content-type"]).toBe("text/plain");
    expect(server.received[0]!.body.toString("utf8")).toBe("# Hello");
  });

  it("refuses an object for such a body before sending", async () => {
    server.handle((_req, res) => sendJson(res, 200, {}));
    await expect(runtimeFor(server).call(UPLOAD, { body: { name: "x" } })).rejects.toBeInstanceOf(RequestEncodingError);
    expect(server.received).toHaveLength(0);
  });
});

describe("the form style of array fields", () => {
  it("follows the description: brackets where it states them, the name repeated where it states none", async () => {
    const body = { tags: ["a", "b"], splits: [{ pages: "1" }] };
    const named = async (arrays?: FormArrayNames) => [...multipartSerializer(await prepareBody(body, [], arrays)).keys()];
    expect(serviceModel.conventions?.form?.arrays).toBe("brackets");
    expect(await named(serviceModel.conventions?.form?.arrays)).toEqual(["tags[]", "tags[]", "splits[0][pages]"]);
    expect(await named()).toEqual(["tags", "tags", "splits[0][pages]"]);
    expect([...urlencodedSerializer(await prepareBody(body)).keys()]).toEqual(["tags", "tags", "splits[0][pages]"]);
  });
});
