// Downloads as resource links, served by resources/read, on the service's server driven by the official client
// against the bundled mock: always with `--downloads link`, above the embed limit otherwise; an embedded file's URI
// is readable too, from any client, since the URI holds the tool's arguments.
import { spawn } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, ErrorCode, McpError, type ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArguments } from "../../../generated/mcp/server.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import {
  type Connection,
  connectStdio,
  downloadTool,
  type HttpServerProcess,
  jobCall,
  root,
  SERVICE_MAIN,
  serviceEnv,
  startHttp,
  TOKEN,
  textOf,
} from "./support.js";

/** A job's file: submitted through a job tool until its payload names its download URL; its bytes as served. */
async function jobFile(client: Client): Promise<{ token: string; bytes: Buffer; contentType: string | null }> {
  const { tool, args } = jobCall();
  const done = (await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
  expect(done.isError, textOf(done)).toBeFalsy();
  const url = JSON.stringify(done.structuredContent).match(/"(http:[^"]*\/job\/download\/[^"]+)"/)?.[1];
  expect(url, "the job's payload names its file").toBeDefined();
  const direct = await fetch(url!, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(direct.status).toBe(200);
  return {
    token: decodeURIComponent(url!.split("/").at(-1)!),
    bytes: Buffer.from(await direct.arrayBuffer()),
    contentType: direct.headers.get("content-type"),
  };
}

/** A resource's contents as bytes: its base64 blob, or its text. */
const bytesOf = (contents: { blob?: unknown; text?: unknown }): Buffer =>
  typeof contents.blob === "string" ? Buffer.from(contents.blob, "base64") : Buffer.from(String(contents.text ?? ""), "utf8");

/** The code and message a promise rejects with, as an McpError. */
async function mcpError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return { code: (error as McpError).code, message: (error as McpError).message };
}

describe("downloads as resource links over stdio", () => {
  let mock: MockServer;
  let embedding: Connection;
  let linking: Connection;
  let capped: Connection;
  let file: { token: string; bytes: Buffer; contentType: string | null };
  const tool = downloadTool();
  const download = (connection: Connection, token: string) =>
    connection.client.callTool({ name: tool.name, arguments: { [tool.arguments[0]!.key]: token } }) as Promise<CallToolResult>;

  beforeAll(async () => {
    // The hold outlasts the job: the job tool answers with the payload at once.
    mock = await startMock({ holdMs: 2000, jobDurationMs: 20 });
    const env = serviceEnv(mock.url);
    [embedding, linking, capped] = await Promise.all([
      connectStdio(SERVICE_MAIN, env),
      connectStdio(SERVICE_MAIN, env, ["--downloads", "link"]),
      connectStdio(SERVICE_MAIN, env, ["--embed-limit", "10"]),
    ]);
    file = await jobFile(embedding.client);
    expect(file.bytes.length).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await Promise.all([embedding, linking, capped].map((c) => c?.client.close()));
    await mock?.stop();
  });

  it("with --downloads link answers a file as a resource link, its bytes not in the result, which resources/read serves", async () => {
    expect(linking.client.getServerCapabilities()?.resources).toBeDefined();
    const result = await download(linking, file.token);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.content.map((c) => c.type)).toEqual(["text", "resource_link"]);
    const link = result.content[1] as ResourceLink;
    expect(link.uri).toMatch(new RegExp(`^download://${tool.name}/[^?]+\\?arguments=`));
    expect(link.mimeType).toBe(file.contentType);
    expect(link.name.length).toBeGreaterThan(0);
    if (link.size !== undefined) expect(link.size).toBe(file.bytes.length);
    expect(JSON.stringify(result)).not.toContain(file.bytes.toString("base64"));
    expect((result.content[0] as { text: string }).text).toContain(link.uri);
    const read = await linking.client.readResource({ uri: link.uri });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: link.uri, mimeType: file.contentType });
    expect(bytesOf(read.contents[0]!).equals(file.bytes)).toBe(true);
    // None is listed: a link is read by its URI.
    expect((await linking.client.listResources()).resources).toEqual([]);
    expect(JSON.stringify([result, read]) + linking.stderr()).not.toContain(TOKEN);
  });

  it("links a file larger than the embed limit, saying why, and serves it by resources/read", async () => {
    const result = await download(capped, file.token);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.content.find((c) => c.type === "resource")).toBeUndefined();
    const link = result.content.find((c) => c.type === "resource_link") as ResourceLink | undefined;
    expect(link, JSON.stringify(result.content)).toBeDefined();
    expect(textOf(result)).toContain("larger than the 10 bytes a result embeds");
    const read = await capped.client.readResource({ uri: link!.uri });
    expect(bytesOf(read.contents[0]!).equals(file.bytes)).toBe(true);
  });

  it("embeds a file within the limit, and its resource's URI reads the same bytes again", async () => {
    const result = await download(embedding, file.token);
    const embedded = result.content.find((c) => c.type === "resource") as
      | { resource: { uri: string; blob?: string; text?: string } }
      | undefined;
    expect(embedded, JSON.stringify(result.content)).toBeDefined();
    expect(bytesOf(embedded!.resource).equals(file.bytes)).toBe(true);
    const read = await embedding.client.readResource({ uri: embedded!.resource.uri });
    expect(bytesOf(read.contents[0]!).equals(file.bytes)).toBe(true);
  });

  it("answers resources/read of a URI it does not serve, of refused arguments and of a file the service lacks with an error saying so", async () => {
    const { client } = linking;
    const foreign = await mcpError(client.readResource({ uri: "file:///etc/passwd" }));
    expect(foreign.code).toBe(-32002);
    expect(foreign.message).toContain('no resource "file:///etc/passwd"');
    const unknownTool = await mcpError(client.readResource({ uri: `download://listWebhooks/x?arguments=${encodeURIComponent("{}")}` }));
    expect(unknownTool.code).toBe(-32002);
    const key = tool.arguments[0]!.key;
    const misspelt = `download://${tool.name}/f?arguments=${encodeURIComponent(JSON.stringify({ [`${key}x`]: file.token }))}`;
    const refused = await mcpError(client.readResource({ uri: misspelt }));
    expect(refused.code).toBe(ErrorCode.InvalidParams);
    expect(refused.message).toContain(`/${key}x`);
    const gone = `download://${tool.name}/f?arguments=${encodeURIComponent(JSON.stringify({ [key]: "no_such_token" }))}`;
    const missing = await mcpError(client.readResource({ uri: gone }));
    expect(missing.code).toBe(-32002);
    expect(missing.message).toMatch(/"status":404/);
    // The server goes on serving.
    expect((await download(linking, file.token)).isError).toBeFalsy();
    expect(linking.stderr()).not.toContain(TOKEN);
  });
});

describe("a resource link over Streamable HTTP", () => {
  let mock: MockServer;
  let http: HttpServerProcess;

  beforeAll(async () => {
    mock = await startMock({ holdMs: 2000, jobDurationMs: 20 });
    http = await startHttp(SERVICE_MAIN, serviceEnv(mock.url), ["--downloads", "link"]);
  });
  afterAll(async () => {
    http?.child.kill();
    await mock?.stop();
  });

  it("is read by another client, since its URI holds the call", async () => {
    const tool = downloadTool();
    const first = await http.connect();
    const second = await http.connect();
    try {
      const file = await jobFile(first);
      const result = (await first.callTool({ name: tool.name, arguments: { [tool.arguments[0]!.key]: file.token } })) as CallToolResult;
      const link = result.content.find((c) => c.type === "resource_link") as ResourceLink | undefined;
      expect(link, JSON.stringify(result.content)).toBeDefined();
      const read = await second.readResource({ uri: link!.uri });
      expect(bytesOf(read.contents[0]!).equals(file.bytes)).toBe(true);
      expect(JSON.stringify([result, read]) + http.stderr()).not.toContain(TOKEN);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("the server's command line", () => {
  it("takes --http, --downloads and --embed-limit, and says what is wrong with anything else", () => {
    expect(parseArguments([])).toEqual({ options: {} });
    expect(parseArguments(["--http", "0", "--downloads", "link", "--embed-limit", "1024"])).toEqual({
      http: 0,
      options: { downloads: "link", embedLimit: 1024 },
    });
    expect(parseArguments(["--downloads", "all"])).toEqual({ problem: '--downloads needs embed or link, found "all"' });
    expect(parseArguments(["--embed-limit", "-1"])).toEqual({ problem: '--embed-limit needs a number of bytes, found "-1"' });
    expect(parseArguments(["--http"])).toEqual({ problem: "--http needs a port number from 0 to 65535, found null" });
    expect(parseArguments(["--link"])).toMatchObject({
      problem: expect.stringMatching(/^unknown argument "--link": the server takes --http/),
    });
  });

  it("ends with status 2 and the problem on stderr", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", SERVICE_MAIN, "--downloads", "all"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    expect(code).toBe(2);
    expect(stderr).toBe('--downloads needs embed or link, found "all"\n');
  });
});
