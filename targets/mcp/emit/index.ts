// The MCP target's emitters: the server's tools (tools.ts), the server (server.ts), its entry point (main.ts), and
// with a package name package.json and tsconfig.json; everything under mcp/ of the output folder.
import { join, relative, resolve, sep } from "node:path";
import { envNames, envPrefix } from "../../../generator/emit/env-names.js";
import type { Emitter } from "../../../generator/emit/kit.js";
import type { TargetContext, TargetRun } from "../../../generator/target.js";
import type { McpOptions } from "../target.js";
import { tsLineComment, tsLiteral, tsString } from "./escape.js";
import { DEFAULT_WAIT_SECONDS, type ToolData, toolData, WAIT_TOOL, waitToolInput, waitToolOutput } from "./tools.js";

const TEMPLATES = new URL("../templates/", import.meta.url);
/** The TypeScript runtime's npm package, which the TypeScript client imports too. */
const RUNTIME_PACKAGE = "@paperoffice/sdk-runtime";
/** The MCP SDK the server is written against: 1.x runs on Node 18 and later, as the client does. */
const MCP_SDK = { name: "@modelcontextprotocol/sdk", range: "^1.32.2" } as const;

/**
 * Above this many tools the server lists three discovery tools (search, describe, call) instead of one per
 * operation: clients cap the tools they pass a model (Cursor sends the first 40).
 */
export const DISCOVERY_THRESHOLD = 40;

/**
 * The tools as tools.ts prints them: each schema's `$defs` moved to one table for inputs and one for outputs (an
 * output's are opened, an input's exact), the tool keeping the names it uses, so a schema used by many tools is
 * written once.
 */
function sharedDefs(
  tools: readonly ToolData[],
  threshold: number,
): { tools: string; inputDefs: string; outputDefs: string; threshold: string; waitTool: string; defaultWait: string } {
  const inputDefs: Record<string, unknown> = {};
  const outputDefs: Record<string, unknown> = {};
  const split = (schema: Record<string, unknown> | undefined, table: Record<string, unknown>) => {
    if (schema === undefined) return { schema: undefined, names: [] as string[] };
    const { $defs, ...rest } = schema as { $defs?: Record<string, unknown> };
    const names = Object.keys($defs ?? {});
    for (const n of names) table[n] ??= $defs![n];
    return { schema: rest, names };
  };
  const printed = tools.map((t) => {
    const input = split(t.inputSchema, inputDefs);
    const output = split(t.outputSchema, outputDefs);
    return {
      ...t,
      inputSchema: input.schema,
      inputDefs: input.names,
      ...(output.schema !== undefined && { outputSchema: output.schema, outputDefs: output.names }),
    };
  });
  const waitTool = tools.some((t) => t.send === "job") && {
    name: WAIT_TOOL,
    description:
      "Waits for a job that a job tool answered with its handle (done: false, still running): answers its payload once it is done, or its handle again when this wait runs out too. Progress notifications say how the job goes.",
    inputSchema: waitToolInput(),
    outputSchema: waitToolOutput(),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  };
  return {
    tools: toolsLiteral(printed),
    inputDefs: tsLiteral(inputDefs),
    outputDefs: tsLiteral(outputDefs),
    threshold: String(threshold),
    waitTool: waitTool === false ? "undefined" : tsLiteral(waitTool),
    defaultWait: String(DEFAULT_WAIT_SECONDS),
  };
}

/**
 * The tools as an array of `defineTool({...})`: each element checked as a ToolDefinition on its own, since one array
 * literal of a large API's tools is a union type tsc refuses as too complex (TS2590, on GitHub's 1,223).
 */
function toolsLiteral(tools: readonly unknown[]): string {
  return tools.length === 0 ? "[]" : `[\n${tools.map((t) => `  defineTool(${tsLiteral(t, "  ")})`).join(",\n")},\n]`;
}

/** The runtime's module specifier as seen from mcp/. */
export function runtimeModuleOf(options: McpOptions, outDir: string | undefined): string {
  if (options.runtimeModule !== undefined) return options.runtimeModule;
  if (options.runtimeSources === undefined) return RUNTIME_PACKAGE;
  if (outDir === undefined) throw new Error("mcp.runtimeSources needs the output folder to import the runtime from");
  const path = relative(join(resolve(outDir), "mcp"), resolve(options.runtimeSources, "index.js"))
    .split(sep)
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/** The server's name: its package name, else the title's words in kebab case with `-mcp`. */
function serverName(title: string, options: McpOptions): string {
  return options.package ?? `${envPrefix(title).toLowerCase().replaceAll("_", "-")}-mcp`;
}

export function mcpEmitters(options: McpOptions, context: TargetContext): TargetRun {
  const runtimeModule = runtimeModuleOf(options, context.outDir);
  const emitMcpServer: Emitter = async (ir, kit) => {
    const env = envNames(ir);
    const prefix = envPrefix(ir.info.title);
    const header = kit.header(ir, "//", tsLineComment).trimEnd();
    const name = serverName(ir.info.title, options);
    const common = { header, runtimeModule: tsString(runtimeModule) };
    const tools = toolData(ir);
    const files = [
      {
        path: "mcp/tools.ts",
        content: kit.render(TEMPLATES, "tools.ts", { ...common, ...sharedDefs(tools, options.discoveryThreshold ?? DISCOVERY_THRESHOLD) }),
      },
      {
        path: "mcp/server.ts",
        content: kit.render(TEMPLATES, "server.ts", {
          ...common,
          titleComment: tsLineComment(ir.info.title),
          envComment: tsLineComment(`${env.token}, ${env.baseUrl}, ${prefix}_USERNAME and ${prefix}_PASSWORD`),
          envToken: tsString(env.token),
          envBaseUrl: tsString(env.baseUrl),
          envUsername: tsString(`${prefix}_USERNAME`),
          envPassword: tsString(`${prefix}_PASSWORD`),
          envLog: tsString(env.log),
          serverName: tsString(name),
          jobs: tools.some((t) => t.send === "job"),
          version: tsString(ir.info.version),
        }),
      },
      {
        path: "mcp/main.ts",
        content: kit.render(TEMPLATES, "main.ts", {
          ...common,
          runComment: tsLineComment(options.package === undefined ? "npx tsx mcp/main.ts" : `npx ${options.package}`),
        }),
      },
    ];
    if (options.package !== undefined) files.push(...packageFiles(options.package, ir.info.version, runtimeModule));
    return files;
  };
  return { emitters: [emitMcpServer] };
}

/** package.json (its bin runs the built main.js) and the tsconfig.json that builds it into dist/. */
function packageFiles(name: string, version: string, runtimeModule: string): { path: string; content: string }[] {
  const semver = /^\d+\.\d+\.\d+(?:[-+].*)?$/.test(version) ? version : "0.0.0";
  const bin = name.replace(/^@[^/]+\//, "");
  const pkg = {
    name,
    version: semver,
    type: "module",
    bin: { [bin]: "./dist/mcp/main.js" },
    files: ["dist"],
    engines: { node: ">=20.19" },
    scripts: { build: "tsc -p tsconfig.json", start: "node dist/mcp/main.js" },
    dependencies: {
      [MCP_SDK.name]: MCP_SDK.range,
      ajv: "^8.17.1",
      ...(!runtimeModule.startsWith(".") && { [runtimeModule]: "^0.1.0" }),
    },
    devDependencies: { typescript: "~5.9", "@types/node": "^20.19.0" },
  };
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      outDir: "dist",
      rootDir: "..",
      skipLibCheck: true,
    },
    include: ["*.ts"],
  };
  return [
    { path: "mcp/package.json", content: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: "mcp/tsconfig.json", content: `${JSON.stringify(tsconfig, null, 2)}\n` },
  ];
}
