// The service's server as a client sees it, over stdio and over Streamable HTTP against the mock, at the debug log
// level: the input schemas tools/list gives (not the generated module's) take every fixture (its files as file
// arguments), every tool called once with a fixture is answered (an upload's files reach the mock), and the token
// is in no result and no line the server writes.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as generatedTools } from "../../../generated/mcp/tools.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { casesOf, connectStdio, filesOf, fixtureArguments, SERVICE_MAIN, serviceEnv, startHttp, TOKEN, textOf } from "./support.js";

const transports = ["stdio", "Streamable HTTP"] as const;

describe.each(transports)("the service's server over %s, as listed", (transport) => {
  let mock: MockServer;
  let client: Client;
  let stderr: () => string;
  let stop: () => Promise<void>;
  let listed: Tool[] = [];
  const results: CallToolResult[] = [];

  beforeAll(async () => {
    // The hold outlasts the jobs: a job tool answers with its payload.
    mock = await startMock({ holdMs: 2000, jobDurationMs: 20, recordRequests: true });
    const env = { ...serviceEnv(mock.url), DOCUMENT_AUTOMATION_SERVICE_LOG: "debug" };
    if (transport === "stdio") {
      const connection = await connectStdio(SERVICE_MAIN, env);
      client = connection.client;
      stderr = connection.stderr;
      stop = () => client.close();
    } else {
      const http = await startHttp(SERVICE_MAIN, env);
      client = await http.connect();
      stderr = http.stderr;
      stop = async () => {
        await client.close();
        http.child.kill();
      };
    }
    listed = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await stop?.();
    await mock?.stop();
  });

  it("lists input schemas that take every fixture, its files as file arguments", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    const problems: string[] = [];
    let checked = 0;
    for (const tool of generatedTools) {
      const schema = listed.find((t) => t.name === tool.name)?.inputSchema;
      expect(schema, tool.name).toBeDefined();
      const validate = ajv.compile(schema!);
      for (const args of fixtureArguments(tool)) {
        checked++;
        if (!validate(args)) problems.push(`${tool.name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
    // Every tool has a fixture, and those that upload a file are among them.
    expect(generatedTools.filter((t) => fixtureArguments(t).length === 0).map((t) => t.name)).toEqual([]);
    expect(generatedTools.flatMap(casesOf).filter((c) => filesOf(c.request.body).length > 0).length).toBeGreaterThanOrEqual(5);
    expect(checked).toBeGreaterThanOrEqual(generatedTools.length);
  });

  it("answers every tool called once with a fixture: the service's answer, or its error as a result with a status", async () => {
    const failed: string[] = [];
    let answered = 0;
    const uploads: { tool: string; operationId: string; names: string[] }[] = [];
    for (const tool of generatedTools) {
      const args = fixtureArguments(tool)[0];
      expect(args, tool.name).toBeDefined();
      const result = (await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
      results.push(result);
      if (!result.isError) answered++;
      else if (typeof (JSON.parse(textOf(result)) as { status?: unknown }).status !== "number")
        failed.push(`${tool.name}: ${textOf(result)}`);
      const files = filesOf(casesOf(tool)[0]!.request.body);
      if (files.length > 0) uploads.push({ tool: tool.name, operationId: tool.operationId, names: files.map((f) => f.name) });
    }
    expect(failed).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(10);
    // Each upload reached the mock with its fixture's files, by their names.
    const received = mock
      .requestLog()
      .flatMap((r) => (r.files === undefined ? [] : [{ operationId: r.operationId, names: r.files.map((f) => f.name) }]));
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    for (const u of uploads) expect(received, u.tool).toContainEqual({ operationId: u.operationId, names: u.names });
  });

  it("shows the token in no result and no line it writes, its client logging at debug", () => {
    expect(results.length).toBeGreaterThan(10);
    expect(stderr()).toMatch(/authorization: '\[redacted\]'/i);
    expect(JSON.stringify([listed, results]) + stderr()).not.toContain(TOKEN);
  });
});
