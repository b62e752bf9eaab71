// Path parameters that would make the request reach another path (empty, "." or "..", as the URL carries them) are
// refused before anything is sent, through every sender: operations, job polling and downloads by token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, downloadJobFile, getJob } from "../../../../generated/index.js";
import { type OperationSpec, SdkError } from "../../runtime/index.js";
import { checkPathValues } from "../../runtime/path-template.js";
import { runtimeFor, SECRET } from "./helpers/model.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };
const REFUSED = 'getJob: path parameter job_id must not be empty, "." or ".."';

describe("checkPathValues", () => {
  it.each(["", ".", ".."])("refuses %j", (value) => {
    expect(() => checkPathValues("getJob", { job_id: value })).toThrow(new SdkError(REFUSED));
  });

  it.each(["...", ".a", "a.", "%2e%2e", "%2E", ".%2e", "../x", "0", "a b"])("lets %j through (encoded it is no dot segment)", (value) => {
    expect(() => checkPathValues("getJob", { job_id: value })).not.toThrow();
  });

  it("lets numbers through, 0 included", () => {
    expect(() => checkPathValues("getJob", { job_id: 0 })).not.toThrow();
  });

  it("names the parameter refused among several, and leaves its value out", () => {
    const thrown = (() => {
      try {
        checkPathValues("getThing", { a: "x", b: "..", c: "" });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as Error).message).toBe('getThing: path parameter b must not be empty, "." or ".."');
  });
});

describe("over HTTP", () => {
  const answer = () => server.handle((_req, res) => sendJson(res, 200, { status: "success", job_status: "processing" }));

  it.each(["", ".", ".."])("an operation's path parameter %j sends nothing", async (value) => {
    answer();
    await expect(runtimeFor(server).call(GET_JOB, { path: { job_id: value } })).rejects.toThrow(new SdkError(REFUSED));
    expect(server.received).toEqual([]);
  });

  it("the generated getJob refuses '..' and sends nothing", async () => {
    answer();
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET });
    await expect(getJob(client, { job_id: ".." })).rejects.toThrow(new SdkError(REFUSED));
    expect(server.received).toEqual([]);
  });

  it("'%2e%2e' given is sent encoded once more, as a plain segment", async () => {
    answer();
    await runtimeFor(server).call(GET_JOB, { path: { job_id: "%2e%2e" } });
    expect(server.received.map((r) => r.url)).toEqual(["/latest/job/get/%252e%252e"]);
  });

  it("waiting on job '..' sends no poll", async () => {
    answer();
    await expect(runtimeFor(server).waitJob("..", { deadlineMs: 2000 })).rejects.toThrow(
      /^getJob: path parameter job_id must not be empty/,
    );
    expect(server.received).toEqual([]);
  });

  it("a download by token '.' sends nothing", async () => {
    answer();
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET });
    await expect(downloadJobFile(client, { token: "." })).rejects.toThrow(
      /^downloadJobFile: path parameter token must not be empty, "\." or "\.\."/,
    );
    expect(server.received).toEqual([]);
  });
});
