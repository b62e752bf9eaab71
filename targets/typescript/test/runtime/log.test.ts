// Logging: the level from the logLevel option, else the model's environment variable, else off (every level for a
// given logger); entries for requests, answers, retries and polls; headers at debug with the credentials redacted.
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type OperationSpec, SdkError } from "../../runtime/index.js";
import { errorClasses, model, SECRET } from "./helpers/model.js";
import { TestRuntime } from "./helpers/runtime.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const VARIABLE = "LOG_TEST_SERVICE_LOG";
const withEnv = { ...model, env: { ...model.env, log: VARIABLE } };
const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };
const CONFIGURED = "configured-secret-77aa";

afterEach(() => {
  delete process.env[VARIABLE];
  vi.restoreAllMocks();
});

function runtime(options: ConstructorParameters<typeof TestRuntime>[1] = {}): TestRuntime {
  return new TestRuntime(
    withEnv,
    { baseUrl: server.baseUrl, token: SECRET, secrets: [CONFIGURED], retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options },
    errorClasses,
  );
}

/** console's methods, recording each call as one line. */
function spyConsole(): string[] {
  const lines: string[] = [];
  for (const level of ["debug", "info", "warn", "error", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(`${level} ${args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 6, breakLength: Infinity }))).join(" ")}`);
    });
  }
  return lines;
}

function answerOnceAfter500(): void {
  server.handle((_req, res, index) =>
    index === 0
      ? sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "hiccup" })
      : sendJson(
          res,
          200,
          { job_id: "j", job_status: "processing" },
          { "x-request-id": "req-77", "x-echo": `Bearer ${SECRET} and ${CONFIGURED}` },
        ),
  );
}

describe("logging", () => {
  it("at debug from the environment variable, logs requests, the retry and the answer to console, secrets redacted", async () => {
    answerOnceAfter500();
    process.env[VARIABLE] = "debug";
    const lines = spyConsole();
    await runtime().call(GET_JOB, { path: { job_id: "j" } });
    const text = lines.join("\n");
    expect(lines.filter((l) => l.startsWith("debug request "))).toHaveLength(2);
    expect(text).toMatch(/debug request .*method: 'GET'.*path: '\/job\/get\/\{job_id\}'.*attempt: 2/);
    expect(text).toMatch(/warn retrying .*reason: 'HTTP 500 INTERNAL_ERROR'.*delayMs: \d/);
    expect(text).toMatch(/info answer .*status: 200.*requestId: 'req-77'.*durationMs: \d/);
    expect(text).toMatch(/authorization'?: '\[redacted\]'/i);
    expect(text).toMatch(/'x-echo': 'Bearer \[redacted\] and \[redacted\]'/);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(CONFIGURED);
  });

  it("at off, or unset without a logger, logs nothing, not even a retry", async () => {
    for (const value of ["off", undefined]) {
      answerOnceAfter500();
      if (value === undefined) delete process.env[VARIABLE];
      else process.env[VARIABLE] = value;
      const lines = spyConsole();
      await runtime().call(GET_JOB, { path: { job_id: "j" } });
      expect(server.received).toHaveLength(2);
      expect(lines).toEqual([]);
    }
  });

  it("filters a given logger by logLevel, which wins over the variable", async () => {
    answerOnceAfter500();
    process.env[VARIABLE] = "debug";
    const seen: string[] = [];
    const at = (level: string) => (message: string) => seen.push(`${level} ${message}`);
    const logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
    await runtime({ logger, logLevel: "warn" }).call(GET_JOB, { path: { job_id: "j" } });
    expect(seen).toEqual(["warn retrying"]);
  });

  it("gives a logger without a level every entry when the variable is unset", async () => {
    answerOnceAfter500();
    const seen: string[] = [];
    const at = (level: string) => (message: string) => seen.push(`${level} ${message}`);
    await runtime({ logger: { debug: at("debug"), info: at("info"), warn: at("warn") } }).call(GET_JOB, { path: { job_id: "j" } });
    expect(seen).toEqual([
      "debug request",
      "info answer",
      "debug answer headers",
      "warn retrying",
      "debug request",
      "info answer",
      "debug answer headers",
    ]);
  });

  it("reads the variable as unset where the runtime refuses the environment (Deno without --allow-env)", () => {
    const env = process.env;
    process.env = new Proxy({} as NodeJS.ProcessEnv, {
      get: () => {
        throw new Error("NotCapable: requires env access");
      },
    });
    try {
      expect(() => runtime()).not.toThrow();
    } finally {
      process.env = env;
    }
  });

  it("refuses an unknown level, naming the variable and its value", () => {
    process.env[VARIABLE] = "verbose";
    expect(() => runtime()).toThrow(SdkError);
    expect(() => runtime()).toThrow(`the environment variable ${VARIABLE} is "verbose": use one of debug, info, warn, error, off`);
    delete process.env[VARIABLE];
    expect(() => runtime({ logLevel: "loud" as "debug" })).toThrow('options.logLevel is "loud"');
  });
});
