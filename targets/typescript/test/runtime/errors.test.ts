import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConflictError,
  JobMayExistError,
  MalformedResponseError,
  type OperationSpec,
  PermissionDeniedError,
  ServiceError,
} from "../../runtime/index.js";
import { errorClasses, model, runtimeFor } from "./helpers/model.js";
import { sendJson, sendText, startServer, type TestServer } from "./helpers/server.js";

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
const noRetry = { retry: { maxRetries: 0 } };

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

describe("error mapping", () => {
  it.each(Object.entries(model.errors!))("maps %s to its generated class", async (code, { status }) => {
    server.handle((_req, res) =>
      sendJson(res, status, { status: "error", code, message: `text of ${code}`, processing_time: "4ms" }, { "x-request-id": "req-7" }),
    );
    const error = await failureOf(runtimeFor(server, noRetry).call(GET_DOC, { path: { pofid: "p1" } }));
    const ErrorClass = errorClasses[code]!;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ServiceError);
    const e = error as ServiceError;
    expect(e.name).toBe(ErrorClass.name);
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    expect(e.message).toBe(`${code}: text of ${code}`);
    expect(e.processingTime).toBe("4ms");
    expect(e.requestId).toBe("req-7");
    expect(e.body).toEqual({ status: "error", code, message: `text of ${code}`, processing_time: "4ms" });
    expect(server.received).toHaveLength(1);
  });

  it("gives an unknown code the class of its status", async () => {
    server.handle((_req, res) => sendJson(res, 409, { status: "error", code: "SOMETHING_NEW", message: "new", processing_time: "1ms" }));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect((error as object).constructor).toBe(ConflictError);
    expect((error as ServiceError).code).toBe("SOMETHING_NEW");
    expect((error as ServiceError).status).toBe(409);
  });

  it("handles the voice pipeline's code-less error body", async () => {
    const body = { status: "error", message: "voice alias unknown", pipeline: "service_voice___tts", processing_time: "8ms" };
    server.handle((_req, res) => sendJson(res, 400, body));
    const error = await failureOf(runtimeFor(server).submitJob("service_voice___tts", { text: "hi", voice: "nobody" }));
    expect((error as object).constructor).toBe(BadRequestError);
    const e = error as ServiceError;
    expect(e.code).toBeUndefined();
    expect(e.message).toBe("voice alias unknown");
    expect(e.processingTime).toBe("8ms");
    expect(e.body).toEqual(body);
    expect(server.received).toHaveLength(1);
  });

  it("keeps ServiceError itself for a status without a class", async () => {
    server.handle((_req, res) => sendJson(res, 402, { status: "error", code: "SOMETHING_NEW", message: "pay" }));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect((error as object).constructor).toBe(ServiceError);
    expect((error as ServiceError).status).toBe(402);
  });

  it("handles a non-JSON error body", async () => {
    server.handle((_req, res) => sendText(res, 403, "<html>Forbidden by proxy</html>"));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect((error as object).constructor).toBe(PermissionDeniedError);
    expect((error as ServiceError).status).toBe(403);
    expect((error as ServiceError).body).toBe("<html>Forbidden by proxy</html>");
    expect((error as ServiceError).message).toBe("HTTP 403: <html>Forbidden by proxy</html>");
  });

  it("uses the error table's description when the body has no message", async () => {
    server.handle((_req, res) => sendJson(res, 400, { status: "error", code: "INVALID_REQUEST" }));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect((error as ServiceError).message).toBe("INVALID_REQUEST: Missing or invalid parameters.");
  });

  it("raises MalformedResponseError for a success body that is not JSON", async () => {
    server.handle((_req, res) => sendText(res, 200, '{"status":"success", broken', "application/json"));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).status).toBe(200);
    expect((error as MalformedResponseError).body).toBe('{"status":"success", broken');
    expect(server.received).toHaveLength(1);
  });

  it("reports a malformed success answer to a submission as a job that may exist", async () => {
    server.handle((_req, res) => sendText(res, 200, "not json", "application/json"));
    const error = await failureOf(runtimeFor(server).submitJob("workflow", {}));
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(MalformedResponseError);
    expect(server.received).toHaveLength(1);
  });

  it("never treats HTTP 202 as an error", async () => {
    server.handle((_req, res) =>
      sendJson(res, 202, { status: "success", job_id: "h1", poll_url: "/job/get/h1", processing_time: "295000ms" }),
    );
    const result = await runtimeFor(server).call<{ job_id: string }>(GET_DOC, { path: { pofid: "p1" } });
    expect(result.meta.status).toBe(202);
    expect(result.data.job_id).toBe("h1");
  });

  it("reads a 202 whose body says status error as that error, unless it is a job submission's still-running answer", async () => {
    const body = { status: "error", code: "FORBIDDEN", message: "module missing", job_id: "h2" };
    server.handle((_req, res) => sendJson(res, 202, body));
    const error = await failureOf(runtimeFor(server, noRetry).call(GET_DOC, { path: { pofid: "p1" } }));
    expect(error).toBeInstanceOf(errorClasses.FORBIDDEN);
    const submit = model.jobs?.submit;
    expect(submit?.stillRunningStatus).toBe(202);
    const held = await runtimeFor(server, noRetry).call<{ job_id: string }>(submit!.operation, {
      path: { pipeline: "service_aiocr___generate" },
      body: { file: "x" },
    });
    expect(held.meta.status).toBe(202);
    expect(held.data.job_id).toBe("h2");
  });

  it("treats a 200 whose body says status error as that error", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "error", code: "FORBIDDEN", message: "module missing" }));
    const error = await failureOf(runtimeFor(server).call(GET_DOC, { path: { pofid: "p1" } }));
    expect(error).toBeInstanceOf(errorClasses.FORBIDDEN);
    expect((error as ServiceError).status).toBe(200);
  });
});
