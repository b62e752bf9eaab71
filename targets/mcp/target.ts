// The MCP target: a Model Context Protocol server over the generated TypeScript client, written to <out>/mcp/. It
// is a server, not an SDK: the suites that drive every SDK leave it out (`kind`), and it needs the TypeScript client
// of the same run beside it (`requires`).
import type { Target } from "../../generator/target.js";

/** The target's options, as its block of the configuration file holds them. */
export interface McpOptions {
  /** The server's npm package name: when given, mcp/ is a package (package.json with a bin, tsconfig.json). */
  readonly package?: string;
  /** A folder of the TypeScript runtime's sources, imported by path instead of the runtime's package. */
  readonly runtimeSources?: string;
  /** The runtime's module specifier as the server imports it (default: the runtime's package). */
  readonly runtimeModule?: string;
  /** Above this many tools, the server lists discovery tools (search, describe, call) instead (default 40). */
  readonly discoveryThreshold?: number;
}

export const target: Target = {
  summary:
    "an MCP server over the TypeScript client in mcp/ (one tool per operation, stdio); with a package name, package.json and its bin",
  kind: "server",
  requires: ["typescript"],
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      package: {
        description: "The MCP server's npm package name; when given, mcp/ is a package with a bin of that name.",
        type: "string",
        pattern: "^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$",
      },
      runtimeSources: {
        description:
          "A folder holding the TypeScript runtime's sources, imported by path instead of the runtime's package (as typescript.runtimeSources).",
        type: "string",
        minLength: 1,
      },
      runtimeModule: {
        description: "The TypeScript runtime's module specifier as the server imports it (default: the runtime's package).",
        type: "string",
        minLength: 1,
      },
      discoveryThreshold: {
        description:
          "Above this many tools the server lists three discovery tools (search_operations, describe_operation, call_operation) instead of one per operation (default 40).",
        type: "integer",
        minimum: 0,
      },
    },
  },
  pathOptions: ["runtimeSources"],
  flags: { "mcp-package": { option: "package", help: "the MCP server's npm package name: writes mcp/package.json with its bin" } },
  load: async (raw, context) => {
    const { mcpEmitters } = await import("./emit/index.js");
    return mcpEmitters(raw as McpOptions, context);
  },
};
