// The service's server as a client sees it, over stdio and over Streamable HTTP against the mock, at the debug log
// level: the input schemas tools/list gives (not the generated module's) take every fixture, every tool called once
// with a fixture is answered, and the token is in no result and no line the server writes.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as generatedTools } from "../../../generated/mcp/tools.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { connectStdio, fixtureArguments, SERVICE_MAIN, serviceEnv, startHttp, TOKEN, textOf } from "./support.js";

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
    mock = await startMock({ holdMs: 2000, jobDurationMs: 20 });
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

  it("lists input schemas that take every fixture that sends no file", () => {
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
    expect(checked).toBeGreaterThanOrEqual(generatedTools.length - 2);
  });

  it("answers every tool called once with a fixture: the service's answer, or its error as a result with a status", async () => {
    const failed: string[] = [];
    let answered = 0;
    for (const tool of generatedTools) {
      const args = fixtureArguments(tool)[0];
      if (args === undefined) continue;
      const result = (await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
      results.push(result);
      if (!result.isError) answered++;
      else if (typeof (JSON.parse(textOf(result)) as { status?: unknown }).status !== "number")
        failed.push(`${tool.name}: ${textOf(result)}`);
    }
    expect(failed).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(10);
  });

  it("shows the token in no result and no line it writes, its client logging at debug", () => {
    expect(results.length).toBeGreaterThan(10);
    expect(stderr()).toMatch(/authorization: '\[redacted\]'/i);
    expect(JSON.stringify([listed, results]) + stderr()).not.toContain(TOKEN);
  });
});
