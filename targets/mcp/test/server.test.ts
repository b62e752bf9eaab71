// The generated MCP server driven by the official MCP client over stdio: the service's server (generated/mcp)
// against the bundled mock, and a server generated from a foreign description against a small HTTP service.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { operationServersDescription } from "../../../test/support/operation-servers.js";
import { type RecordingServer, recordingServer } from "../../../test/support/wire.js";
import { tools as generatedTools, inputDefs } from "../../../generated/mcp/tools.js";
import { argumentsOf, type Connection, casesOf, connectStdio, filesOf, jobCall, root, TOKEN } from "./support.js";

const RUNTIME = join(root, "targets", "typescript", "runtime");

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");

interface Fixture {
  readonly operationId: string;
  readonly cases: readonly { readonly name: string; readonly request: Parameters<typeof argumentsOf>[1] }[];
}

const fixtureDir = join(root, "generated", "fixtures", "operations");
const fixtures = new Map(
  readdirSync(fixtureDir).map((f) => {
    const fixture = JSON.parse(readFileSync(join(fixtureDir, f), "utf8")) as Fixture;
    return [fixture.operationId, fixture] as const;
  }),
);

describe("the service's MCP server over stdio, against the mock", () => {
  let mock: MockServer;
  let connection: Connection;
  let listed: Tool[] = [];
  const results: CallToolResult[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = (await connection.client.callTool({ name, arguments: args })) as CallToolResult;
    results.push(result);
    return result;
  };

  beforeAll(async () => {
    mock = await startMock({ holdMs: 300, jobDurationMs: 20, recordRequests: true });
    connection = await connectStdio(join(root, "generated", "mcp", "main.ts"), {
      DOCUMENT_AUTOMATION_SERVICE_TOKEN: TOKEN,
      DOCUMENT_AUTOMATION_SERVICE_BASE_URL: mock.url,
      // Every call logged at debug: to stderr, or the protocol on stdout would break.
      DOCUMENT_AUTOMATION_SERVICE_LOG: "debug",
    });
    listed = (await connection.client.listTools()).tools;
  });
  afterAll(async () => {
    await connection?.client.close();
    await mock?.stop();
  });

  it("lists one tool per operation, with valid names, fitted descriptions and annotations from the description", () => {
    const ir = JSON.parse(readFileSync(join(root, "generated", "ir.json"), "utf8")) as {
      operations: { id: string; method: string; idempotent: boolean; variants?: { pipelines: { slug: string }[] } }[];
    };
    // One tool per operation, an operation with pipelines one per pipeline, and the tool that resumes a job's wait.
    expect(listed.filter((t) => t.name !== "wait_job")).toHaveLength(
      ir.operations.reduce((n, op) => n + (op.variants?.pipelines.length ?? 1), 0),
    );
    expect(listed.at(-1)?.name).toBe("wait_job");
    for (const tool of listed) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(tool.description?.length ?? 0).toBeGreaterThan(0);
      expect(tool.description!.length).toBeLessThanOrEqual(1024);
      expect(tool.inputSchema.type).toBe("object");
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
    }
    const byName = new Map(listed.map((t) => [t.name, t]));
    for (const op of ir.operations.filter((o) => o.variants === undefined)) {
      const tool = byName.get(op.id);
      expect(tool, op.id).toBeDefined();
      const readOnly = op.method === "get" || op.method === "head";
      expect(tool!.annotations?.readOnlyHint, op.id).toBe(readOnly);
      expect(tool!.annotations?.idempotentHint, op.id).toBe(op.idempotent);
      if (!readOnly) expect(tool!.annotations?.destructiveHint, op.id).toBe(op.method === "delete");
    }
    expect(byName.get("getDocument")?.outputSchema?.type).toBe("object");
    expect(byName.get("addJob_workflow")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get("addJob_workflow")?.inputSchema.properties).not.toHaveProperty("pipeline");
  });

  it("takes every operation's fixture as valid arguments of its tool", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const problems: string[] = [];
    let checked = 0;
    let withFiles = 0;
    for (const tool of generatedTools) {
      const fixture = fixtures.get(tool.operationId);
      expect(fixture, tool.name).toBeDefined();
      const validate = ajv.compile({ ...tool.inputSchema, $defs: Object.fromEntries(tool.inputDefs.map((n) => [n, inputDefs[n]])) });
      for (const c of casesOf(tool)) {
        checked++;
        if (filesOf(c.request.body).length > 0) withFiles++;
        if (!validate(argumentsOf(tool, c.request))) problems.push(`${tool.name} ${c.name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
    // Every case, those that upload a file included.
    expect(checked).toBe(generatedTools.reduce((n, t) => n + casesOf(t).length, 0));
    expect(withFiles).toBeGreaterThanOrEqual(5);
  });

  it("answers a read tool with structured content the output schema describes", async () => {
    const result = await call(
      "getDocument",
      argumentsOf(generatedTools.find((t) => t.name === "getDocument")!, fixtures.get("getDocument")!.cases[0]!.request),
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toBeTypeOf("object");
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it("answers every tool called once with its fixture: the service's answer, or its error as a result", async () => {
    // Fixtures name jobs, downloads and subscriptions the mock does not hold: the service's 404 or 400 is an answer
    // too. What may not come back is a refusal of the arguments, an internal failure or a protocol error.
    const failed: string[] = [];
    let answered = 0;
    let uploaded = 0;
    for (const tool of generatedTools) {
      const fixture = casesOf(tool)[0];
      expect(fixture, tool.name).toBeDefined();
      const before = mock.requestLog().length;
      const result = await call(tool.name, argumentsOf(tool, fixture!.request));
      if (!result.isError) answered++;
      else if (typeof (JSON.parse(textOf(result)) as { status?: unknown }).status !== "number")
        failed.push(`${tool.name}: ${textOf(result)}`);
      // An upload's file reaches the service as the fixture has it: its bytes, file name and media type.
      const files = filesOf(fixture!.request.body);
      if (files.length === 0) continue;
      uploaded++;
      const sent = mock
        .requestLog()
        .slice(before)
        .find((r) => r.operationId === tool.operationId && r.files !== undefined);
      expect(sent?.files, tool.name).toEqual(
        files.map((f) =>
          expect.objectContaining({
            name: f.name,
            type: f.contentType,
            size: Buffer.byteLength(f.text),
            sha256: createHash("sha256").update(f.text).digest("hex"),
          }),
        ),
      );
    }
    expect(failed).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(10);
    // The tools whose only fixtures upload a file are called too.
    expect(uploaded).toBeGreaterThanOrEqual(2);
  });

  it("answers a misspelt argument with isError and the JSON pointer of the field", async () => {
    const result = await call("getActivityHeatmap", { yaer: 2025 });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: "invalid-argument", pointer: "/yaer" });
    const nested = await call("subscribeWebhook", { body: { url: "https://example.com/hook", events: ["document.edited"], retries: 3 } });
    expect(nested.isError).toBe(true);
    expect(JSON.parse(textOf(nested)).message).toContain("/body/retries");
  });

  it("answers a service error as a tool result with isError, status and code, and keeps serving", async () => {
    const result = await call("getJob", { job_id: "job_missing" });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: "NotFoundCodeError", status: 404, code: "NOT_FOUND" });
    expect((await call("listWebhooks", {})).isError).toBeFalsy();
  });

  it("never shows the token in a result or on stderr, where its client logs", () => {
    expect(results.length).toBeGreaterThan(5);
    expect(JSON.stringify(results)).not.toContain(TOKEN);
    expect(connection.stderr()).toMatch(/^answer \{\n[^}]*status: 200,/m);
    expect(connection.stderr()).toMatch(/authorization: '\[redacted\]'/i);
    expect(connection.stderr()).not.toContain(TOKEN);
  });
});

describe("a server generated from a foreign description", () => {
  let work = "";
  let service: Server;
  let connection: Connection;
  let discovery: Connection;
  const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "mcp-foreign-"));
    const out = join(work, "out");
    // Both import the runtime's sources by path, as generated/ does.
    const { files } = await generate(join(root, "test", "matrix", "descriptions", "headers-cookies.yaml"), {
      outDir: out,
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(out, files);
    // The same description with a threshold below its three operations: the discovery tools instead.
    const discovering = await generate(join(root, "test", "matrix", "descriptions", "headers-cookies.yaml"), {
      outDir: join(work, "discovery"),
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME, discoveryThreshold: 2 } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(join(work, "discovery"), discovering.files);
    await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    service = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ok: true, echoed: body === "" ? null : JSON.parse(body) }));
      });
    });
    await new Promise<void>((done) => service.listen(0, "127.0.0.1", done));
    const { port } = service.address() as AddressInfo;
    connection = await connectStdio(join(out, "mcp", "main.ts"), { MATRIX_HEADERS_BASE_URL: `http://127.0.0.1:${port}` });
    discovery = await connectStdio(join(work, "discovery", "mcp", "main.ts"), { MATRIX_HEADERS_BASE_URL: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await connection?.client.close();
    await discovery?.client.close();
    await new Promise((done) => service?.close(done));
    if (work !== "") await rm(work, { recursive: true, force: true });
  });

  it("sends path, query, header, cookie and body arguments where the description puts them", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["both", "cookieOnly", "headerOnly"]);
    const both = tools.find((t) => t.name === "both")!;
    expect(both.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(both.inputSchema.required).toEqual(["id", "body"]);
    const result = (await connection.client.callTool({
      name: "both",
      arguments: { id: "a b", "If-Match": "v1", prefs: "dark", dry_run: true, body: { name: "n" } },
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toEqual({ ok: true, echoed: { name: "n" } });
    const request = seen.at(-1)!;
    expect(request.method).toBe("PUT");
    expect(request.url).toBe("/both/a%20b?dry_run=true");
    expect(request.headers["if-match"]).toBe("v1");
    expect(request.headers.cookie).toBe("prefs=dark");
  });

  it("lists search, describe and call above its threshold, and reaches every operation through them", async () => {
    const { tools } = await discovery.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_operations", "describe_operation", "call_operation"]);
    const found = (await discovery.client.callTool({ name: "search_operations", arguments: { query: "cookie only" } })) as CallToolResult;
    const results = (found.structuredContent as { results: { name: string }[] }).results;
    expect(results[0]?.name).toBe("cookieOnly");
    const described = (await discovery.client.callTool({ name: "describe_operation", arguments: { name: "both" } })) as CallToolResult;
    expect(described.structuredContent).toMatchObject({ name: "both", inputSchema: { required: ["id", "body"] } });
    const called = (await discovery.client.callTool({
      name: "call_operation",
      arguments: { name: "both", arguments: { id: "d", body: { name: "via discovery" } } },
    })) as CallToolResult;
    expect(called.isError, textOf(called)).toBeFalsy();
    expect(JSON.parse(textOf(called))).toEqual({ ok: true, echoed: { name: "via discovery" } });
    expect(seen.at(-1)?.url).toBe("/both/d");
    const refused = (await discovery.client.callTool({
      name: "call_operation",
      arguments: { name: "both", arguments: { id: "d", body: {} } },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({ error: "invalid-argument", pointer: "/arguments/body/name" });
    const unknown = (await discovery.client.callTool({ name: "call_operation", arguments: { name: "nope" } })) as CallToolResult;
    expect(JSON.parse(textOf(unknown))).toMatchObject({ error: "unknown-operation", pointer: "/name" });
  });

  it("answers a body without its required field with isError and the field's pointer", async () => {
    const before = seen.length;
    const result = (await connection.client.callTool({ name: "both", arguments: { id: "x", body: {} } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: "invalid-argument", pointer: "/body/name" });
    expect(seen.length).toBe(before);
  });
});

describe("a server over a description whose operations have servers of their own", () => {
  let work = "";
  let main: RecordingServer;
  let uploads: RecordingServer;
  let connection: Connection;
  /** The requests each service saw. */
  const seen: { server: "main" | "uploads"; url: string; authorization: string | undefined }[] = [];
  const listen = async (server: "main" | "uploads"): Promise<RecordingServer> => {
    const recording = recordingServer((req, res) => {
      seen.push({ server, url: req.url, authorization: req.headers.authorization });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ at: server }));
    });
    await recording.listen();
    return recording;
  };

  beforeAll(async () => {
    [main, uploads] = await Promise.all([listen("main"), listen("uploads")]);
    work = await mkdtemp(join(tmpdir(), "mcp-servers-"));
    await writeFile(join(work, "servers.json"), JSON.stringify(operationServersDescription("MCP Servers", main.port, uploads.port)));
    const out = join(work, "out");
    const { files } = await generate(join(work, "servers.json"), {
      outDir: out,
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(out, files);
    await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    // A token and no base address in the environment: each operation goes where the description puts it.
    connection = await connectStdio(join(out, "mcp", "main.ts"), { MCP_SERVERS_TOKEN: "t0ken" });
  });
  afterAll(async () => {
    await connection?.client.close();
    await Promise.all([main, uploads].map((s) => s?.close()));
    if (work !== "") await rm(work, { recursive: true, force: true });
  });

  it("sends each tool's call to its operation's first server, as the client's function does", async () => {
    const where = async (name: string) => {
      const before = seen.length;
      const result = (await connection.client.callTool({ name, arguments: {} })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(seen.length - before, name).toBe(1);
      return seen.at(-1);
    };
    expect(await where("plain")).toEqual({ server: "main", url: "/v1/plain", authorization: "Bearer t0ken" });
    // The operation's server with its variables at their defaults, the path item's, and a relative one below the
    // document's server's origin.
    expect(await where("upload")).toEqual({ server: "uploads", url: "/up/upload", authorization: "Bearer t0ken" });
    expect(await where("pathLevel")).toMatchObject({ server: "uploads", url: "/path-level" });
    expect(await where("relative")).toMatchObject({ server: "main", url: "/rel/relative" });
  });
});

describe("a job submitted through its pipeline's tool", () => {
  let mock: MockServer;
  let connection: Connection;
  /** The download URL the resumed job's payload names. */
  let payloadUrl: string | undefined;

  beforeAll(async () => {
    // The hold ends before the job does: the tool polls, as the client's submitJob does.
    mock = await startMock({ holdMs: 50, jobDurationMs: 4000 });
    connection = await connectStdio(join(root, "generated", "mcp", "main.ts"), {
      DOCUMENT_AUTOMATION_SERVICE_TOKEN: TOKEN,
      DOCUMENT_AUTOMATION_SERVICE_BASE_URL: mock.url,
    });
  });
  afterAll(async () => {
    await connection?.client.close();
    await mock?.stop();
  });

  it("reports progress while it waits and returns the job id and the payload", async () => {
    const { tool, args } = jobCall();
    const notes: { progress: number; message?: string | undefined }[] = [];
    const result = (await connection.client.callTool({ name: tool.name, arguments: args }, undefined, {
      onprogress: (p) => notes.push({ progress: p.progress, message: p.message }),
      timeout: 60_000,
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const structured = result.structuredContent as { jobId: string; payload: unknown };
    expect(structured.jobId).toMatch(/^job_/);
    expect(structured.payload).toBeDefined();
    expect(notes[0]?.message).toBe("submitted");
    // While it waits: every 2 s, and at each status change a poll sees (`job <id>: <status>`).
    expect(notes.length, JSON.stringify(notes)).toBeGreaterThan(1);
    for (const n of notes.slice(1)) expect(n.message).toMatch(/^(waiting for the job|job job_\S+: \S+)$/);
    expect(notes.map((n) => n.progress)).toEqual(notes.map((_, i) => i + 1));
    expect(JSON.stringify([result, notes])).not.toContain(TOKEN);
  });

  it("answers past its wait with the job's handle, which the wait tool resumes with progress to the payload", async () => {
    const { tool, args } = jobCall();
    const { tools } = await connection.client.listTools();
    const wait = tools.find((t) => t.name === "wait_job");
    expect(wait?.inputSchema.required).toEqual(["job_id"]);
    // A wait far shorter than the job's 4 s: the handle, at once.
    const started = Date.now();
    const held = (await connection.client.callTool({
      name: tool.name,
      arguments: { ...args, [tool.waitArgument!]: 0.2 },
    })) as CallToolResult;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(held.isError, textOf(held)).toBeFalsy();
    const handle = held.structuredContent as { jobId: string; done: boolean; resume: { tool: string; arguments: Record<string, unknown> } };
    expect(handle).toMatchObject({ done: false, resume: { tool: "wait_job", arguments: { job_id: handle.jobId } } });
    expect(handle.jobId).toMatch(/^job_/);
    expect(handle).not.toHaveProperty("payload");
    // The output schema the client checks structured content against takes the handle as well as the payload.
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(tools.find((t) => t.name === tool.name)!.outputSchema!, handle), ajv.errorsText()).toBe(true);
    const notes: { progress: number; message?: string | undefined }[] = [];
    const resumed = (await connection.client.callTool({ name: handle.resume.tool, arguments: handle.resume.arguments }, undefined, {
      onprogress: (p) => notes.push({ progress: p.progress, message: p.message }),
      timeout: 60_000,
    })) as CallToolResult;
    expect(resumed.isError, textOf(resumed)).toBeFalsy();
    const done = resumed.structuredContent as { jobId: string; done: boolean; payload: unknown };
    expect(done).toMatchObject({ jobId: handle.jobId, done: true });
    expect(done.payload).toBeDefined();
    expect(ajv.validate(wait!.outputSchema!, done), ajv.errorsText()).toBe(true);
    expect(notes.length, JSON.stringify(notes)).toBeGreaterThan(0);
    for (const n of notes) expect(n.message).toMatch(/^(waiting for the job|job job_\S+: \S+)$/);
    expect(JSON.stringify([held, resumed, notes])).not.toContain(TOKEN);
    payloadUrl = JSON.stringify(done.payload).match(/"(http:[^"]*\/job\/download\/[^"]+)"/)?.[1];
  });

  it("answers a download with the file as an embedded resource, its bytes exact, not as text", async () => {
    expect(payloadUrl, "the job's payload names its file").toBeDefined();
    const tool = generatedTools.find((t) => t.send === "download")!;
    const token = decodeURIComponent(payloadUrl!.split("/").at(-1)!);
    const result = (await connection.client.callTool({
      name: tool.name,
      arguments: { [tool.arguments[0]!.key]: token },
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const direct = await fetch(payloadUrl!, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(direct.status).toBe(200);
    const bytes = Buffer.from(await direct.arrayBuffer());
    const embedded = result.content.find((c) => c.type === "resource");
    expect(embedded, JSON.stringify(result.content)).toBeDefined();
    const resource = (embedded as { resource: { uri: string; mimeType?: string; blob?: string; text?: string } }).resource;
    expect(resource.mimeType).toBe(direct.headers.get("content-type"));
    expect(resource.uri).toMatch(new RegExp(`^download://${tool.name}/`));
    // The bytes once, as base64 (or as text for a text type), never in the URI as well.
    const received = resource.blob !== undefined ? Buffer.from(resource.blob, "base64") : Buffer.from(resource.text ?? "", "utf8");
    expect(received.equals(bytes)).toBe(true);
    expect(resource.uri).not.toContain(resource.blob ?? "\u0000");
    // The text beside it says what the file is; it does not carry the file.
    const text = result.content.filter((c) => c.type === "text").map((c) => (c as { text: string }).text);
    expect(text).toHaveLength(1);
    expect(text[0]).toContain(`${bytes.length} bytes`);
  });

  it("answers the wait tool with isError for a job the service does not know, and for a misspelt argument", async () => {
    const unknown = (await connection.client.callTool({ name: "wait_job", arguments: { job_id: "job_missing" } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(textOf(unknown))).toMatchObject({ status: 404 });
    const misspelt = (await connection.client.callTool({ name: "wait_job", arguments: { jobid: "x" } })) as CallToolResult;
    expect(misspelt.isError).toBe(true);
    expect(JSON.parse(textOf(misspelt))).toMatchObject({ error: "invalid-argument", pointer: "/job_id" });
  });
});

describe("the service's MCP server over Streamable HTTP", () => {
  let mock: MockServer;
  let child: ChildProcess;
  let url = "";
  let stderr = "";

  beforeAll(async () => {
    // Jobs take 3 s: long enough for a short wait to answer with the handle.
    mock = await startMock({ holdMs: 300, jobDurationMs: 3000 });
    child = spawn(process.execPath, ["--import", "tsx", join(root, "generated", "mcp", "main.ts"), "--http", "0"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", DOCUMENT_AUTOMATION_SERVICE_TOKEN: TOKEN, DOCUMENT_AUTOMATION_SERVICE_BASE_URL: mock.url },
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<string>((found, failed) => {
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
        if (m) found(m[1]!);
      });
      child.on("exit", (code) => failed(new Error(`the server ended (${code}): ${stderr}`)));
    });
  });
  afterAll(async () => {
    child?.kill();
    await mock?.stop();
  });

  it("lists the tools and answers a call, without the token", async () => {
    const client = new Client({ name: "mcp-target-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("listWebhooks");
      const result = (await client.callTool({ name: "listWebhooks", arguments: {} })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: "success" });
      const refused = (await client.callTool({ name: "getActivityHeatmap", arguments: { yaer: 1 } })) as CallToolResult;
      expect(JSON.parse(textOf(refused))).toMatchObject({ pointer: "/yaer" });
      expect(JSON.stringify([tools, result, refused]) + stderr).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it("resumes a held job through its handle in another client's request, with progress on the request's stream", async () => {
    const { tool, args } = jobCall();
    const submitting = new Client({ name: "mcp-target-test", version: "1.0.0" });
    await submitting.connect(new StreamableHTTPClientTransport(new URL(url)));
    let handle: { jobId: string; done: boolean; resume: { tool: string; arguments: Record<string, unknown> } };
    try {
      const held = (await submitting.callTool({
        name: tool.name,
        arguments: { ...args, [tool.waitArgument!]: 0.2 },
      })) as CallToolResult;
      expect(held.isError, textOf(held)).toBeFalsy();
      handle = held.structuredContent as typeof handle;
      expect(handle.done).toBe(false);
    } finally {
      await submitting.close();
    }
    // The server keeps nothing between requests: the handle alone resumes the wait.
    const waiting = new Client({ name: "mcp-target-test", version: "1.0.0" });
    await waiting.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const notes: string[] = [];
      const done = (await waiting.callTool({ name: handle.resume.tool, arguments: handle.resume.arguments }, undefined, {
        onprogress: (p) => notes.push(p.message ?? ""),
        timeout: 60_000,
      })) as CallToolResult;
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(done.structuredContent).toMatchObject({ jobId: handle.jobId, done: true });
      expect(notes.length, JSON.stringify(notes)).toBeGreaterThan(0);
      expect(JSON.stringify([handle, done, notes]) + stderr).not.toContain(TOKEN);
    } finally {
      await waiting.close();
    }
  });

  it("answers another path with 404 and a foreign Host header with an error", async () => {
    expect((await fetch(url.replace(/\/mcp$/, "/other"))).status).toBe(404);
    // fetch drops a Host header it is given; node:http sends it.
    const status = await new Promise<number>((done, failed) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
        },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.on("error", failed);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });
    expect(status).toBe(403);
  });
});
