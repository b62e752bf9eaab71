// File uploads through the generated server, driven by the official client: a file argument as base64 bytes or as
// a download:// link this server answered (fetched again, its bytes never through the model), refused with isError
// and the field's pointer when it is not base64, a link it did not issue, or a local path. On the service's server
// against the mock (which logs each file part it receives) over stdio and Streamable HTTP, and on a server of a
// small description whose multipart, raw and JSON bodies a recording service receives.
import { createHash } from "node:crypto";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { tools as generatedTools } from "../../../generated/mcp/tools.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import {
  argumentsOf,
  casesOf,
  connectStdio,
  downloadTool,
  filesOf,
  jobCall,
  root,
  SERVICE_MAIN,
  serviceEnv,
  startHttp,
  TOKEN,
  textOf,
} from "./support.js";

const RUNTIME = join(root, "targets", "typescript", "runtime");
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
/** Every byte value once: bytes no text encoding keeps as they are. */
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/**
 * The service's first tool whose every fixture uploads a file, its first fixture's arguments, the pointer of that
 * fixture's first file, and those arguments with that file replaced.
 */
function uploadCall(): {
  name: string;
  args: Record<string, unknown>;
  operationId: string;
  pointer: string;
  withFile: (file: unknown) => Record<string, unknown>;
} {
  const tool = generatedTools.find((t) => {
    const cases = casesOf(t);
    return cases.length > 0 && cases.every((c) => filesOf(c.request.body).length > 0);
  });
  if (tool === undefined) throw new Error("the service's description has no tool that only uploads");
  const fixture = casesOf(tool)[0]!;
  const args = argumentsOf(tool, fixture.request);
  // Where the fixture's first file is: an array's item by its index.
  const find = (value: unknown, at: (string | number)[]): (string | number)[] | undefined => {
    if (typeof value !== "object" || value === null) return undefined;
    if ("$file" in value) return at;
    for (const [k, v] of Object.entries(value)) {
      const found = find(v, [...at, Array.isArray(value) ? Number(k) : k]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const path = find(fixture.request.body, ["body"])!;
  const withFile = (file: unknown): Record<string, unknown> => {
    const copy = structuredClone(args);
    let holder = copy as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) holder = holder[k] as Record<string | number, unknown>;
    holder[path.at(-1)!] = file;
    return copy;
  };
  return { name: tool.name, args, operationId: tool.operationId, pointer: `/${path.join("/")}`, withFile };
}

const report = (result: CallToolResult) =>
  JSON.parse(textOf(result)) as { error?: string; pointer?: string; message?: string; status?: number };

const transports = ["stdio", "Streamable HTTP"] as const;

describe.each(transports)("uploads to the service's server over %s", (transport) => {
  let mock: MockServer;
  let client: Client;
  let stderr: () => string;
  let stop: () => Promise<void>;
  const results: CallToolResult[] = [];
  const upload = uploadCall();
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
    results.push(result);
    return result;
  };
  /** The file parts the mock received since `before` requests, on the upload's operation. */
  const received = (before: number) =>
    mock
      .requestLog()
      .slice(before)
      .filter((r) => r.operationId === upload.operationId)
      .flatMap((r) => r.files ?? []);

  beforeAll(async () => {
    // The hold outlasts the jobs: a job tool answers with its payload. Downloads are links, whose URIs an upload takes.
    mock = await startMock({ holdMs: 2000, jobDurationMs: 20, recordRequests: true });
    const env = serviceEnv(mock.url);
    if (transport === "stdio") {
      const connection = await connectStdio(SERVICE_MAIN, env, ["--downloads", "link"]);
      client = connection.client;
      stderr = connection.stderr;
      stop = () => client.close();
    } else {
      const http = await startHttp(SERVICE_MAIN, env, ["--downloads", "link"]);
      client = await http.connect();
      stderr = http.stderr;
      stop = async () => {
        await client.close();
        http.child.kill();
      };
    }
  });
  afterAll(async () => {
    await stop?.();
    await mock?.stop();
  });

  it("lists a file field as an object of base64 data or a download uri, with its filename and media type", async () => {
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === upload.name)!;
    // The schema at the file's pointer: through properties, array items and references to $defs.
    const defs = (listed.inputSchema.$defs ?? {}) as Record<string, Record<string, unknown>>;
    const follow = (schema: Record<string, unknown>): Record<string, unknown> =>
      typeof schema.$ref === "string" ? follow(defs[schema.$ref.split("/").at(-1)!]!) : schema;
    const file = upload.pointer
      .split("/")
      .slice(1)
      .reduce<Record<string, unknown>>(
        (schema, key) => {
          const at = follow(schema);
          return /^\d+$/.test(key)
            ? (at.items as Record<string, unknown>)
            : (at.properties as Record<string, Record<string, unknown>>)[key]!;
        },
        listed.inputSchema as Record<string, unknown>,
      );
    const resolved = follow(file) as {
      type: string;
      properties: Record<string, { contentEncoding?: string; pattern?: string }>;
      oneOf: unknown;
    };
    expect(resolved.type).toBe("object");
    expect(Object.keys(resolved.properties).sort()).toEqual(["data", "filename", "mediaType", "uri"]);
    expect(resolved.properties.data?.contentEncoding).toBe("base64");
    expect(resolved.properties.uri?.pattern).toBe("^download://");
    expect(resolved.oneOf).toEqual([{ required: ["data"] }, { required: ["uri"] }]);
  });

  it("sends a file given as base64 with its file name and media type, its bytes exact", async () => {
    const before = mock.requestLog().length;
    const result = await call(
      upload.name,
      upload.withFile({ data: BINARY.toString("base64"), filename: "scan 1.pdf", mediaType: "application/pdf" }),
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(received(before)).toEqual([
      expect.objectContaining({ name: "scan 1.pdf", type: "application/pdf", size: 256, sha256: sha256(BINARY) }),
    ]);
  });

  it("refuses data that is not base64 with isError and the pointer of the field, sending nothing", async () => {
    const before = mock.requestLog().length;
    const result = await call(upload.name, upload.withFile({ data: "not base64!", filename: "a.pdf" }));
    expect(result.isError).toBe(true);
    expect(report(result)).toMatchObject({ error: "invalid-argument", pointer: `${upload.pointer}/data` });
    expect(report(result).message).toContain("not base64");
    expect(mock.requestLog().length).toBe(before);
  });

  it("refuses a URI it did not issue, a local path and a file of neither data nor uri, naming the field", async () => {
    const before = mock.requestLog().length;
    const key = downloadTool().arguments[0]!.key;
    const foreign = [
      "file:///etc/passwd",
      "https://example.com/a.pdf",
      `download://listWebhooks/x?arguments=${encodeURIComponent("{}")}`,
      `download://${downloadTool().name}/x?arguments=${encodeURIComponent(JSON.stringify({ [`${key}x`]: "t" }))}`,
      "download://nothing",
    ];
    for (const uri of foreign) {
      const result = await call(upload.name, upload.withFile({ uri }));
      expect(result.isError, uri).toBe(true);
      expect(report(result), uri).toMatchObject({ error: "invalid-argument", pointer: `${upload.pointer}/uri` });
    }
    const path = await call(upload.name, upload.withFile({ path: "/etc/passwd" }));
    expect(report(path)).toMatchObject({ error: "invalid-argument", pointer: expect.stringMatching(new RegExp(`^${upload.pointer}/`)) });
    expect(report(path).message).toContain(`${upload.pointer}/path: must NOT have additional properties`);
    const neither = await call(upload.name, upload.withFile({ filename: "a.pdf" }));
    expect(report(neither)).toMatchObject({ error: "invalid-argument", pointer: `${upload.pointer}/data` });
    const both = await call(upload.name, upload.withFile({ data: "AA==", uri: "download://x/y?arguments=%7B%7D" }));
    expect(both.isError).toBe(true);
    expect(mock.requestLog().length).toBe(before);
  });

  it("uploads the file of a download link it answered, fetched again from the service, its bytes not through the model", async () => {
    // A job's file: submitted without a file, its payload names the file's download token.
    const { tool, args } = jobCall();
    const done = await call(tool.name, args);
    expect(done.isError, textOf(done)).toBeFalsy();
    const url = JSON.stringify(done.structuredContent).match(/"(http:[^"]*\/job\/download\/[^"]+)"/)?.[1];
    expect(url, "the job's payload names its file").toBeDefined();
    const direct = await fetch(url!, { headers: { authorization: `Bearer ${TOKEN}` } });
    const bytes = Buffer.from(await direct.arrayBuffer());
    const download = downloadTool();
    const linked = await call(download.name, { [download.arguments[0]!.key]: decodeURIComponent(url!.split("/").at(-1)!) });
    const link = linked.content.find((c) => c.type === "resource_link") as ResourceLink | undefined;
    expect(link, JSON.stringify(linked.content)).toBeDefined();
    const before = mock.requestLog().length;
    const result = await call(upload.name, upload.withFile({ uri: link!.uri, mediaType: "application/pdf" }));
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(received(before)).toEqual([
      expect.objectContaining({ name: link!.name, type: "application/pdf", size: bytes.length, sha256: sha256(bytes) }),
    ]);
    // Neither the link's answer nor the upload's carries the bytes.
    expect(JSON.stringify([linked, result])).not.toContain(bytes.toString("base64"));
  });

  it("answers a link whose file the service no longer has with isError, its status and the field's pointer", async () => {
    const download = downloadTool();
    const uri = `download://${download.name}/gone.pdf?arguments=${encodeURIComponent(JSON.stringify({ [download.arguments[0]!.key]: "no_such_token" }))}`;
    const result = await call(upload.name, upload.withFile({ uri }));
    expect(result.isError).toBe(true);
    expect(report(result)).toMatchObject({ status: 404, pointer: `${upload.pointer}/uri` });
  });

  it("shows the token in no result and no line it writes", () => {
    expect(results.length).toBeGreaterThan(5);
    expect(JSON.stringify(results) + stderr()).not.toContain(TOKEN);
  });
});

/** A description with a multipart upload, a raw upload, a JSON body of a free-form object, and a download. */
const UPLOADS = {
  openapi: "3.1.0",
  info: { title: "MCP Uploads", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/multipart": {
      post: {
        operationId: "postMultipart",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["file"],
                properties: { file: { type: "string", format: "binary" }, note: { type: "string" } },
              },
            },
          },
        },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/raw": {
      put: {
        operationId: "putRaw",
        requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/json": {
      post: {
        operationId: "postJson",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", properties: { meta: {} } } } },
        },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/download": {
      get: {
        operationId: "download",
        responses: {
          "200": { description: "the bytes", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
        },
      },
    },
  },
};

describe("uploads on a server of a small description, to a recording service", () => {
  let work = "";
  let service: Server;
  let client: Client;
  /** The same description's server in discovery mode (its threshold below its four operations). */
  let discovery: Client;
  const seen: { method: string; url: string; contentType: string; body: Buffer }[] = [];

  beforeAll(async () => {
    service = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (req.url === "/download") {
          res.writeHead(200, { "content-type": "application/pdf", "content-disposition": 'attachment; filename="report.pdf"' }).end(BINARY);
          return;
        }
        seen.push({
          method: req.method ?? "",
          url: req.url ?? "",
          contentType: req.headers["content-type"] ?? "",
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((done) => service.listen(0, "127.0.0.1", done));
    const { port } = service.address() as AddressInfo;
    work = await mkdtemp(join(tmpdir(), "mcp-uploads-"));
    await writeFile(join(work, "uploads.json"), JSON.stringify(UPLOADS));
    const out = join(work, "out");
    const { files } = await generate(join(work, "uploads.json"), {
      outDir: out,
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(out, files);
    const discovering = await generate(join(work, "uploads.json"), {
      outDir: join(work, "discovery"),
      targets: { typescript: { runtimeSources: RUNTIME }, mcp: { runtimeSources: RUNTIME, discoveryThreshold: 2 } },
      languages: ["typescript", "mcp"],
      outputs: [],
    });
    await writeFiles(join(work, "discovery"), discovering.files);
    await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    await symlink(join(root, "node_modules"), join(work, "node_modules"), "dir");
    const env = { MCP_UPLOADS_BASE_URL: `http://127.0.0.1:${port}` };
    [{ client }, { client: discovery }] = await Promise.all([
      connectStdio(join(out, "mcp", "main.ts"), env),
      connectStdio(join(work, "discovery", "mcp", "main.ts"), env),
    ]);
  });
  afterAll(async () => {
    await client?.close();
    await discovery?.close();
    await new Promise((done) => service?.close(done));
    if (work !== "") await rm(work, { recursive: true, force: true });
  });

  const callTool = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it("sends a multipart file part with its file name, media type and exact bytes", async () => {
    const result = await callTool("postMultipart", {
      body: { file: { data: BINARY.toString("base64"), filename: "in.pdf", mediaType: "application/pdf" }, note: "n" },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = seen.at(-1)!;
    expect(sent.url).toBe("/multipart");
    const form = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": sent.contentType },
      body: new Uint8Array(sent.body),
    }).formData();
    const file = form.get("file") as File;
    expect(file.name).toBe("in.pdf");
    expect(file.type).toBe("application/pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(BINARY)).toBe(true);
    expect(form.get("note")).toBe("n");
  });

  it("takes a raw body as a file argument and sends its bytes as they are", async () => {
    const { tools } = await client.listTools();
    const raw = tools.find((t) => t.name === "putRaw")!;
    expect((raw.inputSchema.properties as { body: { type: string; required?: unknown } }).body.type).toBe("object");
    const result = await callTool("putRaw", { body: { data: BINARY.toString("base64") } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = seen.at(-1)!;
    expect(sent).toMatchObject({ method: "PUT", url: "/raw", contentType: "application/octet-stream" });
    expect(sent.body.equals(BINARY)).toBe(true);
    const bad = await callTool("putRaw", { body: { data: "%%%" } });
    expect(JSON.parse(textOf(bad))).toMatchObject({ error: "invalid-argument", pointer: "/body/data" });
  });

  it("sends the file of a download link it answered on to a raw upload", async () => {
    const downloaded = await callTool("download", {});
    const embedded = downloaded.content.find((c) => c.type === "resource") as { resource: { uri: string } } | undefined;
    expect(embedded, JSON.stringify(downloaded.content)).toBeDefined();
    const before = seen.length;
    const result = await callTool("putRaw", { body: { uri: embedded!.resource.uri } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)!.body.equals(BINARY)).toBe(true);
  });

  it("refuses an object the client would read as a local file, wherever a schema takes any value, sending nothing", async () => {
    const before = seen.length;
    const result = await callTool("postJson", { body: { meta: { path: "/etc/hostname" } } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: "invalid-argument", pointer: "/body/meta" });
    expect(seen.length).toBe(before);
    // Any other object is the service's to judge.
    const sent = await callTool("postJson", { body: { meta: { path: "/etc/hostname", mode: "r" } } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(JSON.parse(seen.at(-1)!.body.toString("utf8"))).toEqual({ meta: { path: "/etc/hostname", mode: "r" } });
  });

  it("takes a file through call_operation in discovery mode, a refusal's pointer below /arguments", async () => {
    const call = (args: Record<string, unknown>) =>
      discovery.callTool({ name: "call_operation", arguments: { name: "putRaw", arguments: args } }) as Promise<CallToolResult>;
    const refused = await call({ body: { data: "%%%" } });
    expect(JSON.parse(textOf(refused))).toMatchObject({ error: "invalid-argument", pointer: "/arguments/body/data" });
    const sent = await call({ body: { data: BINARY.toString("base64") } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(seen.at(-1)).toMatchObject({ method: "PUT", url: "/raw" });
    expect(seen.at(-1)!.body.equals(BINARY)).toBe(true);
  });
});
