// The MCP target's pieces that need no server: description fitting, the string-literal escaper, tool names.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/generate.js";
import type { IR, Operation } from "../../../generator/ir/types.js";
import { fitDescription, MAX_DESCRIPTION } from "../emit/description.js";
import { tsLiteral, tsString } from "../emit/escape.js";
import { TOOL_NAME, toolData, toolNames } from "../emit/tools.js";

describe("fitDescription", () => {
  const sentence = (i: number) => `Sentence number ${i} says something about the operation.`;
  const long = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");

  it("keeps a text that fits, trimmed", () => {
    expect(fitDescription("  Reads a thing.\n")).toBe("Reads a thing.");
  });

  it("cuts a long text after the last whole sentence that fits", () => {
    expect(long.length).toBeGreaterThan(MAX_DESCRIPTION);
    const fitted = fitDescription(long);
    expect(fitted.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(fitted).toMatch(/operation\.$/);
    expect(long.startsWith(fitted)).toBe(true);
    // Nothing more would fit: the next sentence would pass the limit.
    expect(long.slice(0, long.indexOf(".", fitted.length) + 1).length).toBeGreaterThan(MAX_DESCRIPTION);
  });

  it("cuts one overlong sentence after a whole word, with an ellipsis", () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
    const fitted = fitDescription(words);
    expect(fitted.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(fitted.endsWith("\u2026")).toBe(true);
    const kept = fitted.slice(0, -1).split(" ");
    expect(kept.every((w, i) => w === `word${i}`)).toBe(true);
  });

  it("counts a paragraph's end as a boundary", () => {
    const text = `${"a ".repeat(300)}end\n\n${"b ".repeat(400)}`;
    expect(fitDescription(text)).toBe(`${"a ".repeat(300)}end`);
  });
});

describe("tsString", () => {
  const hostile = [
    '"; process.exit(1); "',
    "back\\slash",
    "line\nbreak\r\u2028\u2029",
    "\u0000\u001f\u007f",
    "\ud800 lone",
    "`$" + "{x}`",
    "*/ //",
  ];

  it.each(hostile)("writes %j as a one-line literal that means the text", (text) => {
    const literal = tsString(text);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(JSON.parse(literal)).toBe(text);
    expect(new Function(`return ${literal};`)()).toBe(text);
  });

  it("writes JSON values with every string escaped", () => {
    const value = { 'k"ey': ["a\nb", 1, true, null, { nested: "\u2028" }] };
    expect(new Function(`return ${tsLiteral(value)};`)()).toEqual(value);
  });
});

describe("toolNames", () => {
  const op = (id: string): Operation =>
    ({
      id,
      identifier: id.replace(/[^A-Za-z0-9_]/g, "_") || "op",
      parameters: { path: [], query: [], header: [], cookie: [] },
    }) as unknown as Operation;

  it("keeps MCP's characters, cuts at 64 and tells apart names that differ only by case or cut", () => {
    const ids = ["get /users/{id}", "Get_users_id_", "x".repeat(80), `${"x".repeat(64)}y`, "list.items-v2"];
    const names = toolNames({ operations: ids.map(op) } as unknown as IR);
    const values = ids.map((id) => names.get(id)!);
    for (const name of values) expect(name).toMatch(TOOL_NAME);
    expect(values[0]).toBe("get__users__id_");
    expect(values[4]).toBe("list.items-v2");
    expect(new Set(values.map((v) => v.toLowerCase())).size).toBe(ids.length);
  });
});

describe("the written package", () => {
  const description = fileURLToPath(new URL("../../../test/matrix/descriptions/headers-cookies.yaml", import.meta.url));
  const files = async (mcp: Record<string, unknown>) =>
    (await generate(description, { outDir: "out", targets: { mcp }, languages: ["typescript", "mcp"], outputs: [] })).files;

  it("is a runnable main.ts without a package name, and with one a package.json whose bin runs the built main", async () => {
    const plain = await files({});
    expect(
      plain
        .map((f) => f.path)
        .filter((p) => p.startsWith("mcp/"))
        .sort(),
    ).toEqual(["mcp/main.ts", "mcp/server.ts", "mcp/tools.ts"]);
    const main = plain.find((f) => f.path === "mcp/main.ts")!.content;
    expect(main.startsWith("#!/usr/bin/env node\n")).toBe(true);
    const packaged = await files({ package: "@acme/headers-mcp" });
    const pkg = JSON.parse(packaged.find((f) => f.path === "mcp/package.json")!.content) as {
      name: string;
      bin: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.name).toBe("@acme/headers-mcp");
    expect(pkg.bin).toEqual({ "headers-mcp": "./dist/mcp/main.js" });
    expect(Object.keys(pkg.dependencies)).toContain("@modelcontextprotocol/sdk");
    expect(packaged.some((f) => f.path === "mcp/tsconfig.json")).toBe(true);
  });
});

describe("a tool's files", () => {
  const ok = { "200": { description: "ok" } };
  const description = {
    openapi: "3.1.0",
    info: { title: "Files", version: "1.0.0" },
    paths: {
      "/nested": {
        post: {
          operationId: "nested",
          requestBody: {
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    docs: { type: "array", items: { type: "string", format: "binary" } },
                    byName: { type: "object", additionalProperties: { type: "string", contentMediaType: "image/png" } },
                    node: { $ref: "#/components/schemas/Node" },
                    note: { type: "string" },
                  },
                },
              },
            },
          },
          responses: ok,
        },
      },
      "/raw": { put: { operationId: "raw", requestBody: { content: { "application/octet-stream": {} } }, responses: ok } },
      "/text": { put: { operationId: "text", requestBody: { content: { "text/plain": { schema: { type: "string" } } } }, responses: ok } },
    },
    components: {
      schemas: {
        Node: { type: "object", properties: { file: { type: "string", format: "binary" }, child: { $ref: "#/components/schemas/Node" } } },
      },
    },
  };
  let tools: ReturnType<typeof toolData> = [];

  beforeAll(async () => {
    const work = await mkdtemp(join(tmpdir(), "mcp-files-"));
    try {
      await writeFile(join(work, "files.json"), JSON.stringify(description));
      const { ir } = await generate(join(work, "files.json"), { outDir: join(work, "out"), languages: ["typescript"], outputs: [] });
      tools = toolData(ir);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it("finds each file's place: a part, an array's items, a map's values, a schema that holds itself at its first depth", () => {
    const nested = tools.find((t) => t.name === "nested")!;
    expect(nested.files).toEqual([
      ["body", "docs", null],
      ["body", "byName", null],
      ["body", "node", "file"],
    ]);
    const docs = (nested.inputSchema.properties as { body: { properties: { docs: { items: Record<string, unknown> } } } }).body.properties
      .docs;
    expect(docs.items).toMatchObject({
      type: "object",
      oneOf: [{ required: ["data"] }, { required: ["uri"] }],
      additionalProperties: false,
    });
    // A named schema's file is the file argument in the input's $defs too.
    expect((nested.inputSchema.$defs as Record<string, { properties: Record<string, unknown> }>).Node?.properties.file).toMatchObject({
      type: "object",
      properties: { data: { contentEncoding: "base64" } },
    });
  });

  it("takes a raw body that is not text as a file, and a text body as its string", () => {
    const raw = tools.find((t) => t.name === "raw")!;
    expect(raw.files).toEqual([["body"]]);
    expect((raw.inputSchema.properties as Record<string, { type?: string }>).body?.type).toBe("object");
    const text = tools.find((t) => t.name === "text")!;
    expect(text.files).toBeUndefined();
    expect((text.inputSchema.properties as Record<string, { type?: string }>).body?.type).toBe("string");
  });
});
