// The runtime follows the description: a copy of the service's description whose poll path is renamed gives a
// client that polls the new path, with the same runtime. And the runtime's sources hold none of the description's
// paths or envelope field names: they reach it through the generated model only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";
import type { ClientOptions, JobResult, Runtime, ServiceModel } from "../../targets/typescript/runtime/index.js";

const runtimeDir = fileURLToPath(new URL("../../targets/typescript/runtime/", import.meta.url));
const OLD_POLL = "/job/get/";
const NEW_POLL = "/job/status/";

interface GeneratedClient {
  createClient(options: ClientOptions): Runtime;
  addJob(client: Runtime, pipeline: string, body: Record<string, unknown>, options?: unknown): Promise<JobResult<unknown>>;
  waitJob(client: Runtime, jobId: string): Promise<JobResult<unknown>>;
  serviceModel: ServiceModel;
}

interface Seen {
  method: string;
  url: string;
}

let base: string;
let generated: GeneratedClient;
let server: Server;
let origin: string;
const seen: Seen[] = [];
let polls = 0;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A service whose poll path is /job/status/{job_id}: the old one answers 404. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on("end", () => {
    seen.push({ method: req.method ?? "", url: req.url ?? "" });
    const url = req.url ?? "";
    if (req.method === "POST" && url === "/latest/job/add/service_aiocr___generate") {
      return json(res, 202, { status: "success", job_id: "r1", poll_url: `${NEW_POLL}r1`, processing_time: "295000ms" });
    }
    if (req.method === "GET" && url.startsWith(`/latest${NEW_POLL}`)) {
      polls++;
      return polls % 2 === 1
        ? json(res, 200, { status: "success", job_status: "processing" })
        : json(res, 200, { status: "success", job_status: "completed", job_result: { text: "renamed" } });
    }
    json(res, 404, { status: "error", code: "NOT_FOUND", message: `no ${req.method} ${url}` });
  });
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "conventions-follow-"));
  const text = await readFile(releaseFile(currentRelease()), "utf8");
  // The path, its operation's documentation and the poll URL schema's pattern all name the poll path.
  const renamed = text.replaceAll(OLD_POLL, NEW_POLL);
  expect(renamed).not.toContain(OLD_POLL);
  expect(renamed).toContain(`${NEW_POLL}{job_id}:`);
  const source = join(base, "renamed.yaml");
  await writeFile(source, renamed);
  const out = join(base, "client");
  const { files } = await generate(source, { languages: ["typescript"], outputs: [], ...withLocalRuntime(out) });
  await writeFiles(out, files);
  generated = (await import(pathToFileURL(join(out, "index.ts")).href)) as GeneratedClient;
  server = createServer(handle);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  if (base) await rm(base, { recursive: true, force: true });
});

describe("a renamed poll path", () => {
  it("reaches the regenerated model", () => {
    expect(generated.serviceModel.jobs?.poll.operation.path).toBe(`${NEW_POLL}{job_id}`);
  });

  it("is what the regenerated client polls after a 202, with the same runtime", async () => {
    seen.length = 0;
    const client = generated.createClient({ baseUrl: `${origin}/latest`, token: "svc_sk_follow", pollIntervalMs: { min: 1, max: 3 } });
    // A body of the pipeline's variant: a field it does not take would be refused before sending.
    const job = await generated.addJob(client, "service_aiocr___generate", { idp_collection: "us_tax_forms", model: "basic" });
    expect(job.data).toEqual({ text: "renamed" });
    expect(job.polls).toBe(2);
    expect(job.submitMeta?.status).toBe(202);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /latest/job/add/service_aiocr___generate",
      `GET /latest${NEW_POLL}r1`,
      `GET /latest${NEW_POLL}r1`,
    ]);
  });

  it("is where a wait by job id goes: the path built from the model's poll operation", async () => {
    seen.length = 0;
    const client = generated.createClient({ baseUrl: `${origin}/latest`, token: "svc_sk_follow", pollIntervalMs: { min: 1, max: 3 } });
    const job = await generated.waitJob(client, "w 2");
    expect(job.data).toEqual({ text: "renamed" });
    expect(seen.every((s) => s.url.startsWith(`/latest${NEW_POLL}w%202`))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(1);
  });
});

/** The texts of a source file's code: string and template parts, regular expressions and names; no comments. */
function codeTexts(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      out.push(node.text);
    } else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      out.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every string value under an extension's key in the description, and the keys' names of the envelope. */
function extensionNames(document: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === "string") names.add(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
  };
  const conventions = document["x-paperoffice-conventions"] as { envelope?: unknown } | undefined;
  collect(conventions?.envelope);
  for (const item of Object.values(document.paths as Record<string, Record<string, unknown>>)) {
    for (const operation of Object.values(item)) {
      const job = (operation as Record<string, unknown> | null)?.["x-paperoffice-job"] as Record<string, unknown> | undefined;
      if (job === undefined) continue;
      const { role: _role, poll: _poll, selectorPattern: _pattern, selectorRefusal: _refusal, ...names_ } = job;
      collect(names_);
    }
  }
  return names;
}

describe("the runtime's sources", () => {
  it("hold none of the description's paths and none of its envelope or job field names", async () => {
    const document = parse(await readFile(releaseFile(currentRelease()), "utf8")) as Record<string, unknown>;
    const paths = Object.keys(document.paths as Record<string, unknown>);
    // A path's fixed part before its first parameter, when it names more than the first segment (/job/get/).
    const prefixes = paths.map((p) => p.split("{")[0] ?? p).filter((p) => p.split("/").filter(Boolean).length >= 2);
    // Field names with an underscore are not words that code uses for itself (job_status, poll_url, _billing...).
    const fields = [...extensionNames(document)].filter((name) => name.includes("_"));
    expect(paths).toContain("/job/add/{pipeline}");
    expect(fields).toEqual(expect.arrayContaining(["job_id", "poll_url", "client_wait", "job_status", "job_result", "_billing"]));

    const files = (await readdir(runtimeDir)).filter((f) => f.endsWith(".ts"));
    // The files that read answers, among all the runtime's files checked.
    const readers = ["jobs.ts", "runtime.ts", "download.ts", "meta.ts", "error-mapping.ts", "transport.ts", "model.ts"];
    expect(files).toEqual(expect.arrayContaining(readers));
    const found: string[] = [];
    for (const file of files) {
      const texts = codeTexts(file, await readFile(join(runtimeDir, file), "utf8"));
      for (const text of texts) {
        for (const path of [...paths, ...prefixes]) if (text.includes(path)) found.push(`${file}: path ${path} in ${JSON.stringify(text)}`);
        for (const field of fields) if (text.includes(field)) found.push(`${file}: field ${field} in ${JSON.stringify(text)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("would see a path written in code (the check is not blind)", () => {
    // A template literal with a substitution in the probe's code: `x${1}/job/add/`.
    const dollar = "$";
    const probe = `const a = "/job/get/{job_id}"; // /job/download/\nconst b = \`x${dollar}{1}/job/add/\`; const job_status = 1;`;
    const texts = codeTexts("probe.ts", probe);
    expect(texts).toContain("/job/get/{job_id}");
    expect(texts.some((t) => t.includes("/job/add/"))).toBe(true);
    expect(texts).toContain("job_status");
    expect(texts.some((t) => t.includes("/job/download/"))).toBe(false);
  });
});
