import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BrowserTokenError, callOperation, type OperationSpec, Runtime, SdkError, tokenKind } from "../../runtime/index.js";
import { errorClasses, model, runtimeFor, SECRET } from "./helpers/model.js";
import { closedPort, sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const GET_DOC: OperationSpec = {
  operationId: "getDocument",
  method: "GET",
  path: "/documents/document-get/{pofid}",
  response: "json",
};

describe("authentication", () => {
  it("sends Authorization: Bearer and a User-Agent with the release and suffix", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    await runtimeFor(server, { userAgentSuffix: "my-app/2.1" }).call(GET_DOC, { path: { pofid: "p" } });
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(server.received[0]?.headers["user-agent"]).toBe("document-automation-service-sdk-typescript/R20261120.0900 my-app/2.1");
  });

  it("lets caller headers through but never over Authorization", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    await runtimeFor(server).call(GET_DOC, { path: { pofid: "p" } }, { headers: { "x-trace": "t1", authorization: "Bearer other" } });
    expect(server.received[0]?.headers["x-trace"]).toBe("t1");
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("reads the token kind from its prefix, with a configurable brand", () => {
    const kinds = model.conventions?.tokens;
    expect(tokenKind("svc_sk_1", kinds)).toBe("secret");
    expect(tokenKind("svc_ut_1", kinds)).toBe("user");
    expect(tokenKind("svc_gt_1", kinds)).toBe("gt");
    expect(tokenKind("svc_pk_1", kinds)).toBe("publishable");
    expect(tokenKind("abc_sk_1", kinds)).toBe("unknown");
    expect(tokenKind("acme_pk_1", kinds, "acme_")).toBe("publishable");
    expect(tokenKind("svc_xx_1", kinds)).toBe("unknown");
    // Without token kinds in the description, no prefix means anything.
    expect(tokenKind("svc_sk_1", undefined)).toBe("unknown");
  });

  it("requires a base address ending in /latest", () => {
    expect(() => new Runtime(model, { baseUrl: "https://api.example.com/v1", token: SECRET })).toThrow(SdkError);
    expect(() => new Runtime(model, { baseUrl: "api.example.com/latest", token: SECRET })).toThrow(/ending in \/latest/);
    expect(() => new Runtime(model, { baseUrl: "https://api.example.com/latest/", token: SECRET })).not.toThrow();
  });

  it("asks a token provider before every request and once more after an expired-token 401", async () => {
    const tokens = ["svc_sk_old", "svc_sk_old", "svc_sk_new", "svc_sk_new"];
    let calls = 0;
    const provider = async () => tokens[calls++] ?? "svc_sk_none";
    server.handle((req, res) =>
      req.headers.authorization === "Bearer svc_sk_new"
        ? sendJson(res, 200, { status: "success" })
        : sendJson(res, 401, { status: "error", code: "BEARERTOKEN_EXPIRED", message: "expired" }),
    );
    const runtime = runtimeFor(server, { token: provider });
    const error = await runtime.call(GET_DOC, { path: { pofid: "p" } }).catch((e: unknown) => e);
    // First call: old token, 401, provider asked again, still old: the 401 surfaces.
    expect(error).toBeInstanceOf(errorClasses.BEARERTOKEN_EXPIRED);
    expect(calls).toBe(2);
    const ok = await runtime.call(GET_DOC, { path: { pofid: "p" } });
    expect(ok.meta.status).toBe(200);
    expect(calls).toBe(3);
    expect(server.received.map((r) => r.headers.authorization)).toEqual(["Bearer svc_sk_old", "Bearer svc_sk_old", "Bearer svc_sk_new"]);
  });

  it("rotates a refused token on a billable submission without counting it as a resubmission", async () => {
    let calls = 0;
    const provider = () => (calls++ === 0 ? "svc_sk_expired" : "svc_sk_fresh");
    server.handle((req, res) =>
      req.headers.authorization === "Bearer svc_sk_fresh"
        ? sendJson(res, 200, { status: "success", job_id: "j", result: { ok: 1 } })
        : sendJson(res, 401, { status: "error", code: "INVALID_TOKEN", message: "invalid" }),
    );
    const job = await runtimeFor(server, { token: provider }).submitJob("workflow", {});
    expect(job.data).toEqual({ ok: 1 });
    expect(server.received).toHaveLength(2);
  });
});

describe("redaction", () => {
  it("keeps the token out of errors, messages and logs", async () => {
    server.handle((req, res) =>
      sendJson(res, 401, {
        status: "error",
        code: "INVALID_TOKEN",
        message: `token ${req.headers.authorization} is not valid`,
        echo: { token: SECRET, nested: [`x ${SECRET} y`] },
      }),
    );
    const lines: string[] = [];
    const log = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields)}`);
    const runtime = runtimeFor(server, { logger: { debug: log, info: log, warn: log, error: log } });
    const error = await runtime.call(GET_DOC, { path: { pofid: "p" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClasses.INVALID_TOKEN);
    const e = error as Error;
    expect(e.message).toBe("INVALID_TOKEN: token Bearer [redacted] is not valid");
    for (const text of [e.message, JSON.stringify(e), String(e.stack), inspect(e, { depth: 10 }), lines.join("\n")]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("0123456789abcdef");
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(runtime)).not.toContain(SECRET);
    expect(inspect(runtime, { depth: 10 })).not.toContain(SECRET);
  });

  it("keeps the token out of connection errors and may-exist errors", async () => {
    const port = await closedPort();
    const runtime = new Runtime(
      model,
      { baseUrl: `http://127.0.0.1:${port}/latest`, token: SECRET, retry: { maxRetries: 0 } },
      errorClasses,
    );
    const refused = await callOperation(runtime, GET_DOC, { path: { pofid: SECRET } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SdkError);
    server.handle((_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: `crash for ${SECRET}` }));
    const mayExist = await runtimeFor(server)
      .submitJob("workflow", {})
      .catch((e: unknown) => e);
    for (const error of [refused, mayExist]) {
      const e = error as Error;
      for (const text of [e.message, JSON.stringify(e), inspect(e, { depth: 10 })]) expect(text).not.toContain(SECRET);
    }
  });
});

describe("browser refusal", () => {
  const scope = globalThis as { window?: unknown; document?: unknown };
  function simulateBrowser(): void {
    scope.window = {};
    scope.document = {};
  }
  afterEach(() => {
    delete scope.window;
    delete scope.document;
  });

  it("refuses secret and user tokens with a clear error that does not quote them", () => {
    simulateBrowser();
    for (const token of ["svc_sk_browser_secret", "svc_ut_browser_user"]) {
      const error = (() => {
        try {
          new Runtime(model, { baseUrl: server.baseUrl, token });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(BrowserTokenError);
      expect((error as Error).message).toMatch(/must not be used in a browser/);
      expect((error as Error).message).not.toContain(token);
    }
  });

  it("allows publishable tokens and sends no User-Agent of its own", async () => {
    simulateBrowser();
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    await runtimeFor(server, { token: "svc_pk_public" }).call(GET_DOC, { path: { pofid: "p" } });
    expect(server.received[0]?.headers.authorization).toBe("Bearer svc_pk_public");
    expect(server.received[0]?.headers["user-agent"]).not.toContain("sdk-typescript");
  });

  it("allows a secret token with the explicit opt-in", async () => {
    simulateBrowser();
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    await runtimeFor(server, { allowSecretTokenInBrowser: true }).call(GET_DOC, { path: { pofid: "p" } });
    expect(server.received).toHaveLength(1);
  });

  it("refuses a secret token from a provider before sending", async () => {
    simulateBrowser();
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const runtime = runtimeFor(server, { token: async () => "svc_sk_from_provider" });
    const error = await runtime.call(GET_DOC, { path: { pofid: "p" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserTokenError);
    expect(server.received).toHaveLength(0);
  });

  it("accepts secret tokens outside a browser", () => {
    expect(() => new Runtime(model, { baseUrl: server.baseUrl, token: SECRET })).not.toThrow();
  });
});
