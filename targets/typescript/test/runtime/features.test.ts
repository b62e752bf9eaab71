import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BillingData,
  DeadlineExceededError,
  fileNameFromDisposition,
  JobMayExistError,
  MayHaveBeenProcessedError,
  type OperationSpec,
  type PageRequest,
  paginator,
  type RequestOptions,
  SdkError,
} from "../../runtime/index.js";
import { errorClasses, model, runtimeFor, SECRET } from "./helpers/model.js";
import { TestRuntime } from "./helpers/runtime.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
let other: TestServer;
beforeAll(async () => {
  server = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

describe("priceJob", () => {
  it("multiplies the base credits by the lane multiplier, default lane no_sla", () => {
    const runtime = runtimeFor(server);
    expect(runtime.priceJob("service_aiocr___generate")).toBe(10);
    expect(runtime.priceJob("workflow", "sla_24h")).toBe(15);
    expect(runtime.priceJob("workflow", "sla_12h")).toBe(20);
    expect(runtime.priceJob("workflow", "sla_6h")).toBe(30);
    expect(runtime.priceJob("workflow", "sla_1h")).toBe(40);
    expect(runtime.priceJob("workflow", "instant")).toBe(50);
  });

  it("never goes below the minimum charge and refuses unknown lanes and pipelines", () => {
    const cheap = new TestRuntime(
      { ...model, pipelines: { tiny: { payloadAfterPolling: "result", baseCredits: 2 } } },
      { baseUrl: server.baseUrl, token: SECRET },
    );
    expect(cheap.priceJob("tiny")).toBe(5);
    expect(cheap.priceJob("tiny", "instant")).toBe(10);
    expect(() => cheap.priceJob("tiny", "warp")).toThrow(/unknown processing lane "warp"/);
    expect(() => cheap.priceJob("workflow")).toThrow(SdkError);
  });
});

describe("paginate", () => {
  const AUDIT: OperationSpec = {
    operationId: "getAuditCenter",
    method: "GET",
    path: "/analytics/audit-center",
    response: "json",
    pagination: { limit: "limit", offset: "offset", items: "findings", total: "total" },
  };

  it("walks limit/offset pages until total", async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: i }));
    server.handle((req, res) => {
      const query = new URL(req.url, "http://x").searchParams;
      const limit = Number(query.get("limit"));
      const offset = Number(query.get("offset"));
      sendJson(res, 200, { status: "success", findings: all.slice(offset, offset + limit), limit, offset, total: all.length });
    });
    const seen: unknown[] = [];
    for await (const item of runtimeFor(server).paginate<{ id: number }>(
      AUDIT,
      { query: { severity: "high" } },
      { items: "findings", pageSize: 3 },
    )) {
      seen.push(item);
    }
    expect(seen).toEqual(all);
    expect(server.received.map((r) => r.url)).toEqual([
      "/latest/analytics/audit-center?severity=high&limit=3&offset=0",
      "/latest/analytics/audit-center?severity=high&limit=3&offset=3",
      "/latest/analytics/audit-center?severity=high&limit=3&offset=6",
    ]);
  });

  it("starts at the given offset, stops on an exact last page, and can be left early", async () => {
    server.handle((req, res) => {
      const offset = Number(new URL(req.url, "http://x").searchParams.get("offset"));
      sendJson(res, 200, { status: "success", findings: [offset, offset + 1], total: 6 });
    });
    const seen: number[] = [];
    for await (const item of runtimeFor(server).paginate<number>(AUDIT, { query: { limit: 2, offset: 2 } }, { items: "findings" }))
      seen.push(item);
    expect(seen).toEqual([2, 3, 4, 5]);
    expect(server.received).toHaveLength(2);

    server.handle((_req, res) => sendJson(res, 200, { status: "success", findings: [1, 2], total: 100 }));
    for await (const item of runtimeFor(server).paginate<number>(AUDIT, { query: { limit: 2 } }, { items: "findings" })) {
      if (item === 1) break;
    }
    expect(server.received).toHaveLength(1);
  });

  it("pages by the names the operation's spec states, and reads the items field from it by default", async () => {
    const renamed: OperationSpec = { ...AUDIT, pagination: { limit: "page_size", offset: "skip", items: "entries", total: "count" } };
    server.handle((req, res) => {
      const query = new URL(req.url, "http://x").searchParams;
      const skip = Number(query.get("skip"));
      sendJson(res, 200, { status: "success", entries: [skip, skip + 1], count: 4 });
    });
    const seen: number[] = [];
    for await (const item of runtimeFor(server).paginate<number>(renamed, { query: { page_size: 2 } })) seen.push(item);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(server.received.map((r) => r.url)).toEqual([
      "/latest/analytics/audit-center?page_size=2&skip=0",
      "/latest/analytics/audit-center?page_size=2&skip=2",
    ]);
  });

  it("refuses an operation whose description states no paging, sending nothing", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", findings: [1] }));
    const { pagination: _, ...unpaged } = AUDIT;
    const iterate = async () => {
      for await (const _item of runtimeFor(server).paginate(unpaged, {}, { items: "findings" })) {
        // no items expected
      }
    };
    await expect(iterate()).rejects.toThrow(/states no paging.*x-paperoffice-pagination/);
    expect(server.received).toHaveLength(0);
  });

  it("gives each page with its items, answer, metadata, offset and total, and refuses a page size that is no count", async () => {
    server.handle((req, res) => {
      const offset = Number(new URL(req.url, "http://x").searchParams.get("offset"));
      sendJson(res, 200, { status: "success", findings: [offset, offset + 1, offset + 2].filter((n) => n < 5), total: 5 });
    });
    const runtime = runtimeFor(server);
    const fetch = (page: PageRequest, options: RequestOptions) =>
      runtime.call<{ findings: number[] }>(AUDIT, { query: { limit: page.limit, offset: page.offset } }, options);
    const pages = [];
    for await (const page of paginator<number, { findings: number[] }, BillingData, RequestOptions>(
      "audit",
      fetch,
      AUDIT.pagination!,
      { limit: 3 },
      {},
    ).pages())
      pages.push({
        items: page.items,
        offset: page.offset,
        limit: page.limit,
        total: page.total,
        status: page.meta.status,
        data: page.data.findings,
      });
    expect(pages).toEqual([
      { items: [0, 1, 2], offset: 0, limit: 3, total: 5, status: 200, data: [0, 1, 2] },
      { items: [3, 4], offset: 3, limit: 3, total: 5, status: 200, data: [3, 4] },
    ]);
    expect(() => paginator("audit", fetch, AUDIT.pagination!, { limit: 0 }, {})).toThrow(
      /audit: the page size \(limit\) must be a positive integer, got 0/,
    );
  });

  it("bounds the whole iteration by the deadline given, not each page", async () => {
    server.handle((req, res) => {
      const offset = Number(new URL(req.url, "http://x").searchParams.get("offset"));
      setTimeout(() => sendJson(res, 200, { status: "success", findings: [offset, offset + 1] }), 150);
    });
    const seen: unknown[] = [];
    const iterate = async () => {
      for await (const item of runtimeFor(server).paginate(AUDIT, { query: { limit: 2 } }, { deadlineMs: 400 })) seen.push(item);
    };
    const error = await iterate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).deadlineMs).toBe(400);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(server.received).toHaveLength(3);
  });

  it("passes errors of a page through", async () => {
    server.handle((_req, res) => sendJson(res, 403, { status: "error", code: "FORBIDDEN", message: "no analytics module" }));
    const iterate = async () => {
      for await (const _ of runtimeFor(server).paginate(AUDIT, {}, { items: "findings" })) {
        // no items expected
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(errorClasses.FORBIDDEN);
  });
});

describe("download", () => {
  it("downloads by token with the file name of Content-Disposition, as a Blob", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/pdf",
        "content-disposition": 'attachment; filename="result file.pdf"',
        "content-length": "8",
      });
      res.end("%PDF-1.7");
    });
    const file = await runtimeFor(server).download("tok123");
    expect(file.fileName).toBe("result file.pdf");
    expect(file.contentType).toBe("application/pdf");
    expect(file.size).toBe(8);
    const blob = await file.blob();
    expect(await blob.text()).toBe("%PDF-1.7");
    expect(blob.type).toBe("application/pdf");
    expect(server.received[0]?.url).toBe("/latest/job/download/tok123");
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("accepts a full download URL below the base address and streams it", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-disposition": "attachment; filename*=UTF-8''Rechnung%20%C3%BC.pdf" });
      res.end("streamed");
    });
    const file = await runtimeFor(server).download(`${server.baseUrl}/job/download/abc%20d`);
    expect(file.fileName).toBe("Rechnung ü.pdf");
    const reader = file.stream.getReader();
    let text = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += Buffer.from(chunk.value).toString();
    expect(text).toBe("streamed");
    expect(server.received[0]?.url).toBe("/latest/job/download/abc%20d");
  });

  it("fetches a signed URL of another origin without the Authorization header", async () => {
    other.handle((_req, res) => {
      res.writeHead(200, { "content-type": "audio/mpeg" });
      res.end("mp3");
    });
    const file = await runtimeFor(server).download(`${other.origin}/signed/voice%20out.mp3?sig=1`);
    expect(file.fileName).toBe("voice out.mp3");
    expect(await (await file.blob()).text()).toBe("mp3");
    expect(other.received[0]?.url).toBe("/signed/voice%20out.mp3?sig=1");
    expect(other.received[0]?.headers.authorization).toBeUndefined();
  });

  it("downloads through the downloadJobFile operation", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-disposition": 'attachment; filename="op.bin"' });
      res.end("op");
    });
    const op: OperationSpec = {
      operationId: "downloadJobFile",
      method: "GET",
      path: "/job/download/{token}",
      response: "binary",
    };
    const file = await runtimeFor(server).download(op, { path: { token: "t 1" } });
    expect(file.fileName).toBe("op.bin");
    expect(await (await file.blob()).text()).toBe("op");
    expect(server.received[0]?.url).toBe("/latest/job/download/t%201");
  });

  it("maps a download error to its class", async () => {
    server.handle((_req, res) => sendJson(res, 404, { status: "error", code: "NOT_FOUND", message: "expired" }));
    await expect(runtimeFor(server).download("gone")).rejects.toBeInstanceOf(errorClasses.NOT_FOUND);
  });

  it("reads file names from Content-Disposition", () => {
    expect(fileNameFromDisposition('attachment; filename="a \\"b\\".pdf"')).toBe('a "b".pdf');
    expect(fileNameFromDisposition("attachment; filename=plain.txt; size=3")).toBe("plain.txt");
    expect(fileNameFromDisposition("inline")).toBeUndefined();
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});

// What the runtime adds to every call, shown on operations of a description of its own: the client's credentials,
// typed errors, the answer's meta, and no second sending of what may have been processed.
describe("calls", () => {
  const PING: OperationSpec = { operationId: "ping", method: "GET", path: "/health/ping" };
  const TRANSLATE: OperationSpec = {
    operationId: "translate",
    method: "POST",
    path: "/translate/run",
    requestMediaType: "application/json",
  };
  const RUN: OperationSpec = { operationId: "run", method: "POST", path: "/imagestudio/run", requestMediaType: "application/json" };
  const STATUS: OperationSpec = { ...RUN, operationId: "status", path: "/imagestudio/status", idempotent: true };

  it("sends with the client's credentials and gives typed errors and the answer's meta", async () => {
    server.handle((req, res) =>
      req.url.startsWith("/latest/health/ping")
        ? sendJson(res, 200, { status: "success", pong: true, processing_time: "1ms", _billing: { remaining_credits: 5 } })
        : sendJson(res, 402, { status: "error", code: "INSUFFICIENT_CREDITS", message: "top up" }),
    );
    const runtime = runtimeFor(server);
    const ping = await runtime.call<{ pong: boolean }>(PING, { query: { deep: true } });
    expect(ping.data.pong).toBe(true);
    expect(ping.meta).toMatchObject({ status: 200, processingTime: "1ms", billing: { remaining_credits: 5 }, requestCount: 1 });
    expect(server.received[0]?.url).toBe("/latest/health/ping?deep=true");
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    await expect(runtime.call(TRANSLATE, { body: { text: "x" } })).rejects.toBeInstanceOf(errorClasses.INSUFFICIENT_CREDITS);
  });

  it("never resends a POST not marked idempotent: after a 500 it may have been processed, and it is no job", async () => {
    server.handle((_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "x" }));
    const error = await runtimeFor(server)
      .call(RUN, { body: { a: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MayHaveBeenProcessedError);
    expect(error).not.toBeInstanceOf(JobMayExistError);
    expect((error as MayHaveBeenProcessedError).status).toBe(500);
    expect((error as Error).cause).toBeInstanceOf(errorClasses.INTERNAL_ERROR);
    expect(server.received).toHaveLength(1);
    await expect(runtimeFor(server).call(STATUS, { body: {} })).rejects.toBeInstanceOf(errorClasses.INTERNAL_ERROR);
    expect(server.received).toHaveLength(5);
  });
});
