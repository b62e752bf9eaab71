// GitHub's description (1,223 operations, @octokit/openapi) as an MCP server in discovery mode: listed as three
// tools, searched by the words of a summary, described, and a call with a misspelt argument refused with its pointer
// before anything is sent. Contract layer: it generates GitHub's TypeScript client first.
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const RUNTIME = join(root, "targets", "typescript", "runtime");
const GITHUB = join(root, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json");

describe("GitHub's description as a discovery-mode server", () => {
  let work = "";
  let client: Client;
  let stderr = "";
  const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "mcp-github-"));
    const { files } = await generate(GITHUB, {
      outDir: work,
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(work, files);
    await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", join(work, "mcp", "main.ts")],
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
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
});
