// What the MCP tests of the service's server share: the official client over stdio or Streamable HTTP, the
// operations' fixtures as a tool's arguments (their files as file arguments), and the job tool a fixture can submit
// without a file.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tools as generatedTools } from "../../../generated/mcp/tools.js";

export const root = fileURLToPath(new URL("../../../", import.meta.url));
/** The service's generated server. */
export const SERVICE_MAIN = join(root, "generated", "mcp", "main.ts");
/** A token the mock accepts; it must never come back in a result or a log line. */
export const TOKEN = "svc_sk_test_0001";

export type GeneratedTool = (typeof generatedTools)[number];

export interface Connection {
  readonly client: Client;
  /** What the server wrote on stderr. */
  readonly stderr: () => string;
}

/** The official client connected over stdio to a server started with `args`. */
export async function connectStdio(main: string, env: Record<string, string>, args: readonly string[] = []): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", main, ...args],
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "mcp-target-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

export interface HttpServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: () => string;
  /** A new official client connected over Streamable HTTP. */
  connect(): Promise<Client>;
}

/** The server over Streamable HTTP on a free port, started with `args` besides `--http 0`. */
export async function startHttp(main: string, env: Record<string, string>, args: readonly string[] = []): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", main, "--http", "0", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((found, failed) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (m) found(m[1]!);
    });
    child.on("exit", (code) => failed(new Error(`the server ended (${code}): ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    connect: async () => {
      const client = new Client({ name: "mcp-target-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    },
  };
}

export const textOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");

interface Fixture {
  readonly operationId: string;
  readonly cases: readonly {
    readonly name: string;
    readonly pipeline?: string;
    readonly request: {
      readonly path?: Record<string, unknown>;
      readonly query?: Record<string, unknown>;
      readonly header?: Record<string, unknown>;
      readonly cookie?: Record<string, unknown>;
      readonly body?: unknown;
    };
  }[];
}
type Request = Fixture["cases"][number]["request"];

const fixtureDir = join(root, "generated", "fixtures", "operations");
const fixtures = new Map(
  readdirSync(fixtureDir).map((f) => {
    const fixture = JSON.parse(readFileSync(join(fixtureDir, f), "utf8")) as Fixture;
    return [fixture.operationId, fixture] as const;
  }),
);

/** A fixture's file, `{ $file: { name, contentType, text } }`. */
export interface FixtureFile {
  readonly name: string;
  readonly contentType: string;
  readonly text: string;
}

const fixtureFile = (value: unknown): FixtureFile | undefined =>
  typeof value === "object" && value !== null && "$file" in value ? (value as { $file: FixtureFile }).$file : undefined;

/** A fixture's value with each of its files as a tool's file argument: base64 data, file name and media type. */
export function withFileArguments(value: unknown): unknown {
  const file = fixtureFile(value);
  if (file !== undefined)
    return { data: Buffer.from(file.text, "utf8").toString("base64"), filename: file.name, mediaType: file.contentType };
  if (Array.isArray(value)) return value.map(withFileArguments);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFileArguments(v)]));
  return value;
}

/** The files of a fixture's value, in the order of its fields. */
export function filesOf(value: unknown): FixtureFile[] {
  const file = fixtureFile(value);
  if (file !== undefined) return [file];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(filesOf);
}

/** A fixture's request as a tool's arguments, by the tool's own keys, its files as file arguments. */
export function argumentsOf(tool: GeneratedTool, request: Request): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const arg of tool.arguments) {
    const value = arg.in === "body" ? withFileArguments(request.body) : request[arg.in]?.[arg.name];
    if (value !== undefined) args[arg.key] = value;
  }
  return args;
}

const hasFile = (value: unknown): boolean => filesOf(value).length > 0;
/** A tool's fixture cases: its operation's, a pipeline's tool only its pipeline's. */
export const casesOf = (tool: GeneratedTool) =>
  (fixtures.get(tool.operationId)?.cases ?? []).filter((c) => tool.pipeline === undefined || c.pipeline === tool.pipeline.slug);

/** A tool's fixture cases as its arguments, files included. */
export function fixtureArguments(tool: GeneratedTool): Record<string, unknown>[] {
  return casesOf(tool).map((c) => argumentsOf(tool, c.request));
}

/** The first job tool with a fixture that sends no file (its job's file is the fixture's own), and that fixture's arguments. */
export function jobCall(): { tool: GeneratedTool; args: Record<string, unknown> } {
  for (const tool of generatedTools) {
    if (tool.send !== "job") continue;
    const fixture = casesOf(tool).find((c) => !hasFile(c.request.body));
    if (fixture !== undefined) return { tool, args: argumentsOf(tool, fixture.request) };
  }
  throw new Error("the service's description has no job tool with a fixture that sends no file");
}

/** The service's download tool. */
export function downloadTool(): GeneratedTool {
  const tool = generatedTools.find((t) => t.send === "download");
  if (tool === undefined) throw new Error("the service's description has no download tool");
  return tool;
}

/** The environment the service's server runs with against a mock at `url`. */
export const serviceEnv = (url: string): Record<string, string> => ({
  DOCUMENT_AUTOMATION_SERVICE_TOKEN: TOKEN,
  DOCUMENT_AUTOMATION_SERVICE_BASE_URL: url,
});
