// GitHub's description (1,223 operations, @octokit/openapi) as an MCP server in discovery mode: listed as three
// tools, searched by the words of a summary, described, a call with a misspelt argument refused with its pointer
// before anything is sent, and a call through call_operation sent to Prism (mock mode on the same description, behind
// a proxy that keeps what Prism says of each request) without a request violation. Contract layer: it generates
// GitHub's TypeScript client first.
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envNames } from "../../../generator/emit/env-names.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { type Exchange, exchangeOf } from "../../../test/prism/calls.js";
import { type PrismServer, startPrism } from "../../../test/prism/prism.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const RUNTIME = join(root, "targets", "typescript", "runtime");
const GITHUB = join(root, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json");

describe("GitHub's description as a discovery-mode server", () => {
  let work = "";
  let client: Client;
  let stderr = "";
  let prism: PrismServer | undefined;
  let proxy: Server | undefined;
  /** What Prism said of each request the server sent. */
  const exchanges: Exchange[] = [];
  const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "mcp-github-"));
    // Prism loads the description while the server is generated.
    const [started, { files, ir }] = await Promise.all([
      startPrism(GITHUB),
      generate(GITHUB, {
        outDir: work,
        targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME } },
        languages: ["typescript", "mcp"],
        outputs: [],
      }),
    ]);
    prism = started;
    const upstream = started.url;
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).flatMap(([k, v]) =>
            v === undefined || ["host", "connection"].includes(k) ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]],
          ),
        );
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const url = `${upstream}${req.url ?? "/"}`;
        void fetch(url, { method: req.method ?? "GET", headers, redirect: "manual", ...(body && { body }) })
          .then(async (response) => {
            exchanges.push(await exchangeOf(req.method ?? "GET", url, response));
            const answer = Buffer.from(await response.arrayBuffer());
            res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/octet-stream" });
            res.end(answer);
          })
          .catch((error: unknown) => res.writeHead(502).end(String(error)));
      });
    });
    await new Promise<void>((done) => proxy!.listen(0, "127.0.0.1", done));
    await writeFiles(work, files);
    await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", join(work, "mcp", "main.ts")],
      cwd: root,
      env: { PATH: process.env.PATH ?? "", [envNames(ir).baseUrl]: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    client = new Client({ name: "mcp-github-test", version: "1.0.0" });
    await client.connect(transport);
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await new Promise((done) => (proxy === undefined ? done(undefined) : proxy.close(done)));
    await prism?.stop();
    if (work !== "") await rm(work, { recursive: true, force: true });
  });

  it("lists the three discovery tools, finds an operation by its summary's words and describes it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_operations", "describe_operation", "call_operation"]);
    const found = (await client.callTool({ name: "search_operations", arguments: { query: "list repository issues" } })) as CallToolResult;
    const results = (found.structuredContent as { results: { name: string; title?: string }[] }).results;
    expect(results[0]).toMatchObject({ name: "issues_list-for-repo", title: "List repository issues" });
    const described = (await client.callTool({ name: "describe_operation", arguments: { name: results[0]!.name } })) as CallToolResult;
    const listing = described.structuredContent as { description: string; inputSchema: { required: string[] }; annotations: object };
    expect(listing.description.length).toBeLessThanOrEqual(1024);
    expect(listing.inputSchema.required).toEqual(["owner", "repo"]);
    expect(listing.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("refuses a misspelt argument with the pointer of the field, before sending", async () => {
    const refused = (await client.callTool({
      name: "call_operation",
      arguments: { name: "issues_list-for-repo", arguments: { owner: "o", repoo: "r" } },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(text(refused))).toMatchObject({ error: "invalid-argument", pointer: "/arguments/repo" });
    expect(text(refused)).toContain("/arguments/repoo");
    expect(stderr).toBe("");
  });

  it("is a server strict tsc compiles, its 1,223 tools one array among them", () => {
    // The repository's own strict options, as the clients' compile test uses them.
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
    const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
    const program = ts.createProgram([join(work, "mcp", "main.ts")], { ...options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.slice(work.length)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics.slice(0, 20)).toEqual([]);
  }, 600_000);

  it("sends a call through call_operation that Prism finds no fault with", async () => {
    const before = exchanges.length;
    const called = (await client.callTool({
      name: "call_operation",
      arguments: { name: "issues_list-for-repo", arguments: { owner: "octocat", repo: "hello-world", state: "open", per_page: 5 } },
    })) as CallToolResult;
    expect(called.isError, text(called)).toBeFalsy();
    const sent = exchanges.slice(before);
    expect(sent.map((e) => `${e.method} ${new URL(e.url).pathname}`)).toEqual(["GET /repos/octocat/hello-world/issues"]);
    expect(new URL(sent[0]!.url).searchParams.get("per_page")).toBe("5");
    expect(sent[0]!.violations.filter((v) => v.location[0] === "request")).toEqual([]);
    expect(sent[0]!.status).toBe(200);
    // The answer is Prism's example, a list: the call's text.
    expect(Array.isArray(JSON.parse(text(called)))).toBe(true);
  });
});
